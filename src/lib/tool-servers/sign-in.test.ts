// Signing in to a tool server and using the sign-in, against a real one that asks for it
// (tests/support/sign-in-tool-server.mjs: the SDK's authorization server helpers, access tokens
// that live 2 s, rotated refresh tokens, and a second authorization server it can switch to).
// The sign-in window is played here on a BroadcastChannel, as static/sign-in.js and
// oauth-callback.js do it: it says it opened, follows the server's sign-in page to the callback
// address, and hands back what the callback page would.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startSignInToolServer } from '../../../tests/support/tool-server.mjs';
import { clientMetadata } from './oauth-client';
import { runSignIn } from './sign-in';
import { SIGN_IN_CHANNEL } from './sign-in-page';
import { followSignInWindow } from './sign-in-window';
import { SIGN_IN_ENDED, issuerChanged, type SignInChange } from './stored-sign-in';
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
beforeEach(async () => {
	await switchServer('reset');
});

interface Stats {
	issued: number;
	refreshed: number;
	live: number;
	requests: number;
	foreignTokens: number;
}

async function stats(authUrl = server.authUrl): Promise<Stats> {
	return (await fetch(`${authUrl}/test/stats`)).json();
}

/** Switches the test server (sign-in-tool-server.mjs lists the switches). */
async function switchServer(name: string, body: unknown = {}): Promise<void> {
	const response = await fetch(`${server.authUrl}/test/${name}`, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(body) });
	expect(response.ok).toBe(true);
}

/** Resolves once no access token the server issued is still valid. */
async function accessTokensExpired(): Promise<void> {
	while ((await stats()).live > 0) await new Promise((resolve) => setTimeout(resolve, 100));
}

/**
 * The sign-in window `windowId`: says it opened; sent to the server's sign-in page, follows it to
 * the callback address and posts its answer, as the callback page does.
 */
function playSignInWindow(windowId: string) {
	const channel = new BroadcastChannel(SIGN_IN_CHANNEL);
	const visited: string[] = [];
	channel.onmessage = async (event: MessageEvent) => {
		const { type, window, url } = event.data ?? {};
		if (type !== 'go' || window !== windowId) return;
		visited.push(url);
		const response = await fetch(url, { redirect: 'manual' });
		const callback = new URL(response.headers.get('location')!, url);
		channel.postMessage(Object.fromEntries(callback.searchParams));
	};
	channel.postMessage({ type: 'opened', window: windowId });
	return { visited, close: () => channel.close() };
}

async function signIn(into: StoredOAuth = {}): Promise<StoredOAuth> {
	const stored = into;
	const channel = new BroadcastChannel(SIGN_IN_CHANNEL);
	const popup = followSignInWindow(channel, 'window-1');
	const window = playSignInWindow('window-1');
	try {
		await runSignIn({ serverUrl: server.url, redirectUrl: REDIRECT, popup, channel, store: { client: () => stored.client, save: async (oauth) => void Object.assign(stored, oauth) } });
	} finally {
		popup.stop();
		channel.close();
		window.close();
	}
	// The server's sign-in page was asked for with PKCE and the state, for the app's registration.
	const authorize = new URL(window.visited[0]);
	expect(authorize.searchParams.get('code_challenge_method')).toBe('S256');
	expect(authorize.searchParams.get('state')?.length).toBeGreaterThanOrEqual(40);
	expect(authorize.searchParams.get('redirect_uri')).toBe(REDIRECT);
	return stored;
}

describe('signing in to a tool server', () => {
	it('registers the app, signs in with a code and PKCE, and keeps the registration, the tokens and the authorization server signed in with', async () => {
		const stored = await signIn();
		expect(stored.client).toMatchObject({ client_name: 'Palimpsest', redirect_uris: [REDIRECT], token_endpoint_auth_method: 'none' });
		expect(stored.client).toMatchObject({ ...clientMetadata(REDIRECT), client_id: expect.any(String) });
		expect(stored.tokens).toMatchObject({ access_token: expect.stringMatching(/^SENTINEL-access-/), refresh_token: expect.stringMatching(/^SENTINEL-refresh-/) });
		expect(stored.pin).toMatchObject({ server: `${server.authUrl}/`, metadata: { issuer: `${server.authUrl}/`, token_endpoint: `${server.authUrl}/token` } });
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
		// (Two requests refused together, a call and the event stream, share that refresh: each may tell of its tokens.)
		await expect.poll(() => heard.length).toBeGreaterThan(0);
		const [refreshed] = heard;
		expect(refreshed).toMatchObject({ type: 'tokens', tokens: { refresh_token: expect.stringMatching(/^SENTINEL-refresh-/) } });
		expect(refreshed.type === 'tokens' && refreshed.tokens.refresh_token).not.toBe(stored.tokens?.refresh_token);

		// The server forgets every refresh token: the next call cannot go on without the user.
		await switchServer('forget-refresh-tokens');
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

	it('asks to sign in again, rather than refresh anywhere, for a sign-in stored without its authorization server', async () => {
		const { pin: _pin, ...unpinned } = await signIn();
		const before = await stats();
		await accessTokensExpired();
		const status = await createToolServerApi().connect({ id: 's3', url: server.url, authorization: '', oauth: unpinned });
		expect(status).toMatchObject({ state: 'failed', error: expect.stringContaining('The server wants you to sign in'), signIn: true });
		expect((await stats()).refreshed).toBe(before.refreshed);
	});

	it('refreshes at the token endpoint signed in through, not one the authorization server’s metadata names later', async () => {
		const stored = await signIn();
		const api = createToolServerApi();
		expect(await api.connect({ id: 's4', url: server.url, authorization: '', oauth: stored })).toMatchObject({ state: 'connected' });
		// The first server's metadata now names the second one's token endpoint.
		await switchServer('move-token-endpoint');
		const before = await stats();
		await accessTokensExpired();
		await expect(api.call({ serverId: 's4', callId: 'c1', tool: 'add', args: { a: 1, b: 1 }, timeoutMs: 10_000 }, () => {})).resolves.toMatchObject({ forModel: 'The sum of 1 and 1 is 2.' });
		expect((await stats()).refreshed).toBe(before.refreshed + 1);
		expect(await stats(server.auth2Url)).toMatchObject({ requests: 0, foreignTokens: 0 });
		await api.disconnect('s4');
	});

	it('refuses a server that names another authorization server after the sign-in: no token goes to either, and the row says so', async () => {
		const stored = await signIn();
		const heard: SignInChange[] = [];
		const api = createToolServerApi();
		expect(await api.connect({ id: 's5', url: server.url, authorization: '', oauth: stored }, (change) => heard.push(change))).toMatchObject({ state: 'connected' });
		await switchServer('switch-issuer');
		const before = await stats();
		const why = issuerChanged(stored.pin!, `${server.auth2Url}/`);
		await expect(api.call({ serverId: 's5', callId: 'c1', tool: 'add', args: { a: 1, b: 1 }, timeoutMs: 10_000 }, () => {})).rejects.toThrow(why);
		await expect.poll(() => heard.at(-1)).toEqual({ type: 'ended', error: why });
		expect(await api.connect({ id: 's5', url: server.url, authorization: '', oauth: stored })).toEqual({ state: 'failed', error: why, signIn: true });
		expect(await stats(server.auth2Url)).toMatchObject({ requests: 0, foreignTokens: 0 });
		expect((await stats()).refreshed).toBe(before.refreshed);
		await api.disconnect('s5');
	});

	it('refuses a sign-in that comes back naming another authorization server (iss), before its code is traded', async () => {
		await switchServer('iss', { iss: 'https://other-issuer.example/' });
		const before = await stats();
		await expect(signIn()).rejects.toThrow(`The sign-in came back from another authorization server (https://other-issuer.example/) than the one it was sent to (${server.authUrl}/), and was refused.`);
		expect((await stats()).issued).toBe(before.issued);
	});

	it('takes a sign-in that names no issuer from a server that does not say it always does', async () => {
		await switchServer('iss', { iss: null });
		const stored = await signIn();
		expect(stored.tokens).toMatchObject({ access_token: expect.stringMatching(/^SENTINEL-access-/) });
	});
});
