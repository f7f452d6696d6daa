// The page's side of one sign-in: the window goes only to a web address the server gave, the
// state and the PKCE verifier belong to this sign-in, and a registration the server refused is
// forgotten.
import { describe, expect, it } from 'vitest';
import { createSignInFlow, type SignInStore } from './sign-in-provider';
import type { StoredOAuth } from './types';

const REDIRECT = 'http://127.0.0.1:4173/oauth-callback.html';

function setup(client?: Record<string, unknown>) {
	const saved: StoredOAuth[] = [];
	const store: SignInStore = { client: () => client, save: async (oauth) => void saved.push(oauth) };
	const popup = { closed: false, location: { href: 'about:blank' } };
	return { ...createSignInFlow(REDIRECT, popup, store), popup, saved };
}

describe('createSignInFlow', () => {
	it('opens the server’s sign-in page in the sign-in window, and nothing that is not a web page', async () => {
		const { provider, popup } = setup();
		for (const address of ['javascript:alert(document.cookie)', 'data:text/html,<script>alert(1)</script>']) {
			expect(() => provider.redirectToAuthorization(new URL(address))).toThrow('The server gave a sign-in address that is not a web page.');
		}
		expect(popup.location.href).toBe('about:blank');
		await provider.redirectToAuthorization(new URL('https://auth.example/authorize?client_id=a'));
		expect(popup.location.href).toBe('https://auth.example/authorize?client_id=a');
		popup.closed = true;
		expect(() => provider.redirectToAuthorization(new URL('https://auth.example/authorize'))).toThrow('The sign-in window was closed');
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

	it('keeps the registration and the tokens it gets, and forgets a registration the server refused', async () => {
		const { provider, saved } = setup({ client_id: 'old' });
		expect(await provider.clientInformation()).toEqual({ client_id: 'old' });
		await provider.invalidateCredentials!('all');
		expect(await provider.clientInformation()).toBeUndefined();
		await provider.saveClientInformation!({ client_id: 'new', redirect_uris: [REDIRECT] });
		await provider.saveTokens({ access_token: 'a', token_type: 'bearer', refresh_token: 'r' });
		expect(saved).toEqual([{ client: undefined }, { client: { client_id: 'new', redirect_uris: [REDIRECT] } }, { tokens: { access_token: 'a', token_type: 'bearer', refresh_token: 'r' } }]);
	});
});
