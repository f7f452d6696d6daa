// Signing in to a tool server and using the sign-in, against a real one that asks for it
// (tests/support/sign-in-tool-server.mjs: the SDK's authorization server helpers, access tokens
// that live 2 s, rotated refresh tokens). The sign-in window is played by a fetch that follows
// the server's sign-in page to the callback address, and posts what the callback page would.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSignInToolServer } from '../../../tests/support/tool-server.mjs';
import { clientMetadata } from './oauth-client';
import { runSignIn } from './sign-in';
import { SIGN_IN_ENDED, type SignInChange } from './stored-sign-in';
import { createToolServerApi } from './tool-server-api';
import type { StoredOAuth } from './types';

const REDIRECT = 'http://127.0.0.1:4999/oauth-callback.html';

let server: Awaited<ReturnType<typeof startSignInToolServer>>;
beforeAll(async () => {
	server = await startSignInToolServer('http://127.0.0.1:4999');
});
afterAll(async () => {
	await server?.close();
});

async function stats(): Promise<{ issued: number; refreshed: number; live: number }> {
	return (await fetch(`${server.authUrl}/test/stats`)).json();
}

/** Resolves once no access token the server issued is still valid. */
async function accessTokensExpired(): Promise<void> {
	while ((await stats()).live > 0) await new Promise((resolve) => setTimeout(resolve, 100));
}

/** A sign-in window: going to the server's sign-in page brings it to the callback, which posts to `target`. */
function signInWindow(target: EventTarget) {
	const visited: string[] = [];
	const popup = {
		closed: false,
		location: {
			get href() {
				return visited.at(-1) ?? 'about:blank';
			},
			set href(url: string) {
				visited.push(url);
				void (async () => {
					const response = await fetch(url, { redirect: 'manual' });
					const callback = new URL(response.headers.get('location')!, url);
					const query = callback.searchParams;
					const event = new Event('message');
					const data = { code: query.get('code'), state: query.get('state'), error: query.get('error') };
					Object.defineProperties(event, { data: { value: data }, source: { value: popup }, origin: { value: callback.origin } });
					target.dispatchEvent(event);
				})();
			}
		}
	};
	return { popup, visited };
}

async function signIn(): Promise<StoredOAuth> {
	const target = new EventTarget();
	const { popup, visited } = signInWindow(target);
	const stored: StoredOAuth = {};
	await runSignIn({ serverUrl: server.url, redirectUrl: REDIRECT, popup, target, store: { client: () => stored.client, save: async (oauth) => void Object.assign(stored, oauth) } });
	// The server's sign-in page was asked for with PKCE and the state, for the app's registration.
	const authorize = new URL(visited[0]);
	expect(authorize.searchParams.get('code_challenge_method')).toBe('S256');
	expect(authorize.searchParams.get('state')?.length).toBeGreaterThanOrEqual(40);
	expect(authorize.searchParams.get('redirect_uri')).toBe(REDIRECT);
	return stored;
}

describe('signing in to a tool server', () => {
	it('registers the app, signs in with a code and PKCE, and keeps the registration and the tokens', async () => {
		const stored = await signIn();
		expect(stored.client).toMatchObject({ client_name: 'Palimpsest', redirect_uris: [REDIRECT], token_endpoint_auth_method: 'none' });
		expect(stored.client).toMatchObject({ ...clientMetadata(REDIRECT), client_id: expect.any(String) });
		expect(stored.tokens).toMatchObject({ access_token: expect.stringMatching(/^SENTINEL-access-/), refresh_token: expect.stringMatching(/^SENTINEL-refresh-/) });
	});

	it('connects with the stored sign-in, refreshes an expired access token on its own, and says to sign in again once that cannot be done', async () => {
		const stored = await signIn();
		const api = createToolServerApi();
		const heard: SignInChange[] = [];
		const request = { id: 's1', url: server.url, authorization: '', oauth: stored };
		const status = await api.connect(request, (change) => heard.push(change));
		expect(status).toMatchObject({ state: 'connected', info: { name: 'sign-in-test-server' } });
		const call = (a: number) => api.call({ serverId: 's1', callId: `c${a}`, tool: 'add', args: { a, b: 1 }, timeoutMs: 10_000 }, () => {});
		await expect(call(1)).resolves.toMatchObject({ forModel: 'The sum of 1 and 1 is 2.' });

		const before = await stats();
		await accessTokensExpired();
		await expect(call(2)).resolves.toMatchObject({ forModel: 'The sum of 2 and 1 is 3.' });
		expect((await stats()).refreshed).toBe(before.refreshed + 1);
		await expect.poll(() => heard.length).toBe(1);
		const [refreshed] = heard;
		expect(refreshed).toMatchObject({ type: 'tokens', tokens: { refresh_token: expect.stringMatching(/^SENTINEL-refresh-/) } });
		expect(refreshed.type === 'tokens' && refreshed.tokens.refresh_token).not.toBe(stored.tokens?.refresh_token);

		// The server forgets every refresh token: the next call cannot go on without the user.
		await fetch(`${server.authUrl}/test/forget-refresh-tokens`, { method: 'POST' });
		await accessTokensExpired();
		await expect(call(3)).rejects.toThrow(SIGN_IN_ENDED);
		await expect.poll(() => heard.at(-1)).toEqual({ type: 'ended', error: SIGN_IN_ENDED });
		expect(await api.connect({ ...request, oauth: { ...stored, tokens: refreshed.type === 'tokens' ? refreshed.tokens : {} } })).toEqual({ state: 'failed', error: SIGN_IN_ENDED, signIn: true });
		await api.disconnect('s1');
	});

	it('asks to sign in when there is no sign-in, rather than starting one in the worker', async () => {
		const api = createToolServerApi();
		const status = await api.connect({ id: 's2', url: server.url, authorization: '' });
		expect(status).toMatchObject({ state: 'failed', signIn: true });
	});
});
