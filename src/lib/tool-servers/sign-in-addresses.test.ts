// Signing in and connecting send nothing over plain http to another computer: not to a stored
// tool server address, not to an authorization server or an endpoint a server names.
import { describe, expect, it } from 'vitest';
import { runSignIn } from './sign-in';
import { followSignInWindow } from './sign-in-window';
import { fakeChannel } from './test-channel';
import { createToolServerApi } from './tool-server-api';

const SERVER = 'http://127.0.0.1:9/mcp';
const REDIRECT = 'http://127.0.0.1:4999/oauth-callback.html';
const AUTH_METADATA = {
	issuer: 'https://auth.example/',
	authorization_endpoint: 'https://auth.example/authorize',
	token_endpoint: 'https://auth.example/token',
	registration_endpoint: 'https://auth.example/register',
	response_types_supported: ['code']
};

/** A fetch answering from `answers` by address (404 for any other), and the addresses asked for. */
function answering(answers: Record<string, unknown>) {
	const asked: string[] = [];
	const fetchImpl: typeof fetch = async (input) => {
		const url = String(input instanceof Request ? input.url : input);
		asked.push(url);
		return url in answers ? Response.json(answers[url]) : new Response('not found', { status: 404 });
	};
	return { asked, fetchImpl };
}

function signInWith(fetchImpl: typeof fetch) {
	const { channel } = fakeChannel();
	const popup = followSignInWindow(channel, 'w', 60_000);
	return runSignIn({ serverUrl: SERVER, redirectUrl: REDIRECT, popup, channel, store: { client: () => undefined, save: async () => {} }, fetchImpl }).finally(() => popup.stop());
}

describe('addresses over plain http', () => {
	it('are not asked for when a tool server names an authorization server at one', async () => {
		const { asked, fetchImpl } = answering({
			'http://127.0.0.1:9/.well-known/oauth-protected-resource/mcp': { resource: SERVER, authorization_servers: ['http://auth.example/'] }
		});
		await expect(signInWith(fetchImpl)).rejects.toThrow('(http://auth.example/.well-known/oauth-authorization-server) is refused: only https is used');
		expect(asked.filter((url) => !url.startsWith('http://127.0.0.1:9/'))).toEqual([]);
	});

	it('are not signed in through when an authorization server names an endpoint at one', async () => {
		const { asked, fetchImpl } = answering({
			'http://127.0.0.1:9/.well-known/oauth-protected-resource/mcp': { resource: SERVER, authorization_servers: ['https://auth.example/'] },
			'https://auth.example/.well-known/oauth-authorization-server': { ...AUTH_METADATA, registration_endpoint: 'http://auth.example/register' }
		});
		await expect(signInWith(fetchImpl)).rejects.toThrow('The authorization server’s registration endpoint (http://auth.example/register) is refused');
		expect(asked.filter((url) => url.startsWith('http://auth.example'))).toEqual([]);
	});

	it('are not connected to when a tool server’s stored address is one', async () => {
		const { asked, fetchImpl } = answering({});
		const status = await createToolServerApi(fetchImpl).connect({ id: 's', url: 'http://tools.example.com/mcp', authorization: 'Bearer sesame' });
		expect(status).toEqual({
			state: 'failed',
			error: 'The tool server’s address (http://tools.example.com/mcp) is refused: only https is used, or plain http to this computer (localhost, 127.0.0.1 or [::1]).'
		});
		expect(asked).toEqual([]);
	});
});
