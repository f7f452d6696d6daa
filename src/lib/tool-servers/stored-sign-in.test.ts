// A stored sign-in in the tool-server worker: it presents the tokens it has and passes on
// refreshed ones, refreshes them at the authorization server pinned at sign-in, refuses a server
// that names another one, and wherever the SDK would start a new sign-in it stops and says so
// once.
import { describe, expect, it } from 'vitest';
import type { IssuerPin } from './issuer-pin';
import { InsecureAddressError } from './secure-url';
import { SIGN_IN_ENDED, SignInNeeded, issuerChanged, storedSignIn, type SignInChange } from './stored-sign-in';

const CLIENT = { client_id: 'app', redirect_uris: ['http://127.0.0.1:4173/oauth-callback.html'] };
const TOKENS = { access_token: 'a1', token_type: 'bearer', refresh_token: 'r1' };
const PIN: IssuerPin = {
	server: 'https://auth.example/',
	metadata: { issuer: 'https://auth.example/', authorization_endpoint: 'https://auth.example/authorize', token_endpoint: 'https://auth.example/token', response_types_supported: ['code'] }
};
const SIGNED_IN = { client: CLIENT, tokens: TOKENS, pin: PIN };
const RESOURCE = 'https://tools.example/mcp';

/** What the provider reported, once its reports (sent without waiting) have landed. */
async function reports(heard: SignInChange[]): Promise<SignInChange[]> {
	await new Promise((resolve) => setTimeout(resolve, 0));
	return heard;
}

describe('storedSignIn', () => {
	it('is nothing without tokens, a registration to refresh them with, or an authorization server pinned to refresh them at', () => {
		expect(storedSignIn(undefined, () => {})).toBeUndefined();
		expect(storedSignIn({ client: CLIENT, pin: PIN }, () => {})).toBeUndefined();
		expect(storedSignIn({ tokens: TOKENS, pin: PIN }, () => {})).toBeUndefined();
		expect(storedSignIn({ client: { client_id: 'app' }, tokens: TOKENS, pin: PIN }, () => {})).toBeUndefined();
		expect(storedSignIn({ client: CLIENT, tokens: TOKENS }, () => {})).toBeUndefined();
		expect(storedSignIn({ client: CLIENT, tokens: TOKENS, pin: { server: PIN.server } as IssuerPin }, () => {})).toBeUndefined();
	});

	it('refuses a stored authorization server over plain http to another computer', () => {
		const pin = { ...PIN, metadata: { ...PIN.metadata, token_endpoint: 'http://auth.example/token' } };
		expect(() => storedSignIn({ ...SIGNED_IN, pin }, () => {})).toThrow(InsecureAddressError);
	});

	it('gives the SDK the pinned authorization server, so that it discovers none', async () => {
		const provider = storedSignIn(SIGNED_IN, () => {})!;
		expect(await provider.discoveryState!()).toEqual({ authorizationServerUrl: PIN.server, authorizationServerMetadata: PIN.metadata });
		await provider.saveDiscoveryState!({ authorizationServerUrl: PIN.server, authorizationServerMetadata: PIN.metadata as never, resourceMetadata: { resource: RESOURCE, authorization_servers: ['https://auth.example'] } });
		expect(await provider.tokens()).toEqual(TOKENS);
	});

	it('refuses a server that now names another authorization server, before any token is read, and says so once', async () => {
		const heard: SignInChange[] = [];
		const provider = storedSignIn(SIGNED_IN, (change) => heard.push(change))!;
		const why = issuerChanged(PIN, 'https://evil.example/');
		expect(why).toBe(
			'This server now sends its sign-in to another authorization server (evil.example) than the one you signed in with (auth.example). Nothing of your sign-in was sent there: press Sign in to sign in with it, if you trust it.'
		);
		const named = { authorizationServerUrl: PIN.server, resourceMetadata: { resource: RESOURCE, authorization_servers: ['https://evil.example/'] } };
		await expect(async () => provider.saveDiscoveryState!(named)).rejects.toThrow(new SignInNeeded(why));
		expect(await provider.tokens()).toBeUndefined();
		await expect(async () => provider.saveDiscoveryState!(named)).rejects.toThrow(SignInNeeded);
		expect(await reports(heard)).toEqual([{ type: 'ended', error: why }]);
	});

	it('presents its tokens and reports refreshed ones', async () => {
		const heard: SignInChange[] = [];
		const provider = storedSignIn(SIGNED_IN, (change) => heard.push(change))!;
		expect(await provider.tokens()).toEqual(TOKENS);
		expect(await provider.clientInformation()).toEqual(CLIENT);
		await provider.saveTokens({ access_token: 'a2', token_type: 'bearer', refresh_token: 'r2' });
		expect(await provider.tokens()).toMatchObject({ access_token: 'a2' });
		expect(await reports(heard)).toEqual([{ type: 'tokens', tokens: { access_token: 'a2', token_type: 'bearer', refresh_token: 'r2' } }]);
	});

	it('never starts a sign-in: it throws SignInNeeded and reports the end once', async () => {
		const heard: SignInChange[] = [];
		const provider = storedSignIn(SIGNED_IN, (change) => heard.push(change))!;
		expect(() => provider.invalidateCredentials!('tokens')).toThrow(SignInNeeded);
		expect(() => provider.redirectToAuthorization(new URL('https://auth.example/authorize'))).toThrow(SIGN_IN_ENDED);
		expect(await provider.tokens()).toBeUndefined();
		expect(await reports(heard)).toEqual([{ type: 'ended', error: SIGN_IN_ENDED }]);
	});

	it('does not wait for the page, nor fail when the page is gone', async () => {
		const provider = storedSignIn(SIGNED_IN, () => Promise.reject(new Error('page closed')) as never)!;
		await provider.saveTokens({ access_token: 'a2', token_type: 'bearer' });
		await reports([]);
	});
});
