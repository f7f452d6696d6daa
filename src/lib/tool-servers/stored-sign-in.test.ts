// A stored sign-in in the tool-server worker: it presents the tokens it has and passes on
// refreshed ones, and wherever the SDK would start a new sign-in it stops and says so once.
import { describe, expect, it } from 'vitest';
import { SIGN_IN_ENDED, SignInNeeded, storedSignIn, type SignInChange } from './stored-sign-in';

const CLIENT = { client_id: 'app', redirect_uris: ['http://127.0.0.1:4173/oauth-callback.html'] };
const TOKENS = { access_token: 'a1', token_type: 'bearer', refresh_token: 'r1' };

/** What the provider reported, once its reports (sent without waiting) have landed. */
async function reports(heard: SignInChange[]): Promise<SignInChange[]> {
	await new Promise((resolve) => setTimeout(resolve, 0));
	return heard;
}

describe('storedSignIn', () => {
	it('is nothing without tokens or a registration to refresh them with', () => {
		expect(storedSignIn(undefined, () => {})).toBeUndefined();
		expect(storedSignIn({ client: CLIENT }, () => {})).toBeUndefined();
		expect(storedSignIn({ tokens: TOKENS }, () => {})).toBeUndefined();
		expect(storedSignIn({ client: { client_id: 'app' }, tokens: TOKENS }, () => {})).toBeUndefined();
	});

	it('presents its tokens and reports refreshed ones', async () => {
		const heard: SignInChange[] = [];
		const provider = storedSignIn({ client: CLIENT, tokens: TOKENS }, (change) => heard.push(change))!;
		expect(await provider.tokens()).toEqual(TOKENS);
		expect(await provider.clientInformation()).toEqual(CLIENT);
		await provider.saveTokens({ access_token: 'a2', token_type: 'bearer', refresh_token: 'r2' });
		expect(await provider.tokens()).toMatchObject({ access_token: 'a2' });
		expect(await reports(heard)).toEqual([{ type: 'tokens', tokens: { access_token: 'a2', token_type: 'bearer', refresh_token: 'r2' } }]);
	});

	it('never starts a sign-in: it throws SignInNeeded and reports the end once', async () => {
		const heard: SignInChange[] = [];
		const provider = storedSignIn({ client: CLIENT, tokens: TOKENS }, (change) => heard.push(change))!;
		expect(() => provider.invalidateCredentials!('tokens')).toThrow(SignInNeeded);
		expect(() => provider.redirectToAuthorization(new URL('https://auth.example/authorize'))).toThrow(SIGN_IN_ENDED);
		expect(await provider.tokens()).toBeUndefined();
		expect(await reports(heard)).toEqual([{ type: 'ended', error: SIGN_IN_ENDED }]);
	});

	it('does not wait for the page, nor fail when the page is gone', async () => {
		const provider = storedSignIn({ client: CLIENT, tokens: TOKENS }, () => Promise.reject(new Error('page closed')) as never)!;
		await provider.saveTokens({ access_token: 'a2', token_type: 'bearer' });
		await reports([]);
	});
});
