// The page's side of one sign-in: the window goes only to a web page the server gave, over https
// (or on this computer); the state and the PKCE verifier belong to this sign-in; what discovery
// found is pinned, kept for the code's trade and stored with the tokens; and a registration the
// server refused is forgotten.
import { describe, expect, it } from 'vitest';
import { InsecureAddressError } from './secure-url';
import { createSignInFlow, type SignInStore } from './sign-in-provider';
import type { StoredOAuth } from './types';

const REDIRECT = 'http://127.0.0.1:4173/oauth-callback.html';
const METADATA = {
	issuer: 'https://auth.example/',
	authorization_endpoint: 'https://auth.example/authorize',
	token_endpoint: 'https://auth.example/token',
	response_types_supported: ['code']
};

function setup(client?: Record<string, unknown>) {
	const saved: StoredOAuth[] = [];
	const store: SignInStore = { client: () => client, save: async (oauth) => void saved.push(oauth) };
	const sent: string[] = [];
	const popup = { go: (url: URL) => void sent.push(url.href) };
	return { ...createSignInFlow(REDIRECT, popup, store), sent, saved };
}

describe('createSignInFlow', () => {
	it('sends the sign-in window to the server’s sign-in page, and nowhere that is not a web page over https (or on this computer)', async () => {
		const { provider, sent } = setup();
		for (const address of ['javascript:alert(document.cookie)', 'data:text/html,<script>alert(1)</script>']) {
			expect(() => provider.redirectToAuthorization(new URL(address))).toThrow('The server gave a sign-in address that is not a web page.');
		}
		expect(() => provider.redirectToAuthorization(new URL('http://auth.example/authorize'))).toThrow('The server gave a sign-in page over plain http (http://auth.example), which is refused');
		expect(sent).toEqual([]);
		await provider.redirectToAuthorization(new URL('https://auth.example/authorize?client_id=a'));
		await provider.redirectToAuthorization(new URL('http://localhost:9000/authorize?client_id=a'));
		expect(sent).toEqual(['https://auth.example/authorize?client_id=a', 'http://localhost:9000/authorize?client_id=a']);
	});

	it('pins the authorization server discovery found, keeps it for the code’s trade, and stores it with the tokens', async () => {
		const { provider, pin, saved } = setup();
		expect(await provider.discoveryState!()).toBeUndefined();
		const found = { authorizationServerUrl: 'https://auth.example/', authorizationServerMetadata: METADATA, resourceMetadata: { resource: 'https://tools.example/mcp' } };
		await provider.saveDiscoveryState!(found);
		expect(await provider.discoveryState!()).toEqual(found);
		expect(pin()).toEqual({ server: 'https://auth.example/', metadata: METADATA });
		// The second auth() may find the resource metadata it missed: the same server is kept.
		await provider.saveDiscoveryState!({ ...found, resourceMetadata: { resource: 'https://tools.example/mcp', authorization_servers: ['https://auth.example'] } });
		await expect(async () =>
			provider.saveDiscoveryState!({ ...found, resourceMetadata: { resource: 'https://tools.example/mcp', authorization_servers: ['https://evil.example/'] } })
		).rejects.toThrow('The server named another authorization server while you signed in');
		await provider.saveTokens({ access_token: 'a', token_type: 'bearer', refresh_token: 'r' });
		expect(saved).toEqual([{ tokens: { access_token: 'a', token_type: 'bearer', refresh_token: 'r' }, pin: { server: 'https://auth.example/', metadata: METADATA } }]);
	});

	it('refuses an authorization server, or an endpoint of one, over plain http to another computer', async () => {
		const { provider, pin } = setup();
		await expect(async () => provider.saveDiscoveryState!({ authorizationServerUrl: 'https://auth.example/', authorizationServerMetadata: { ...METADATA, token_endpoint: 'http://auth.example/token' } })).rejects.toThrow(
			InsecureAddressError
		);
		await expect(async () => provider.saveDiscoveryState!({ authorizationServerUrl: 'http://auth.example/' })).rejects.toThrow(InsecureAddressError);
		expect(pin()).toBeUndefined();
		await expect(async () => provider.saveTokens({ access_token: 'a', token_type: 'bearer' })).rejects.toThrow();
	});

	it('has a state and a verifier of its own, and never offers stored tokens (a sign-in asks the user)', async () => {
		const one = setup();
		const two = setup();
		expect(await one.provider.state!()).toBe(one.state);
		expect(one.state).not.toBe(two.state);
		expect(() => one.provider.codeVerifier()).toThrow();
		await one.provider.saveCodeVerifier('verifier-1');
		expect(await one.provider.codeVerifier()).toBe('verifier-1');
		expect(await one.provider.tokens()).toBeUndefined();
		expect(one.provider.redirectUrl).toBe(REDIRECT);
		expect(one.provider.clientMetadata).toEqual({
			client_name: 'Palimpsest',
			redirect_uris: [REDIRECT],
			grant_types: ['authorization_code', 'refresh_token'],
			response_types: ['code'],
			token_endpoint_auth_method: 'none'
		});
	});

	it('keeps the registration it gets, and forgets a registration the server refused', async () => {
		const { provider, saved } = setup({ client_id: 'old' });
		expect(await provider.clientInformation()).toEqual({ client_id: 'old' });
		await provider.invalidateCredentials!('all');
		expect(await provider.clientInformation()).toBeUndefined();
		await provider.saveClientInformation!({ client_id: 'new', redirect_uris: [REDIRECT] });
		expect(saved).toEqual([{ client: undefined }, { client: { client_id: 'new', redirect_uris: [REDIRECT] } }]);
	});
});
