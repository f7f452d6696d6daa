// Refreshes of one sign-in that overlap spend its refresh token once, through the SDK's own
// token request, against a server that rotates refresh tokens (a second use is refused).
import { refreshAuthorization } from '@modelcontextprotocol/sdk/client/auth.js';
import { describe, expect, it } from 'vitest';
import { shareRefreshes } from './shared-refresh';

const SERVER = 'https://auth.example';
const CLIENT = { client_id: 'app' };

/** A token endpoint that issues r2, r3, … and refuses a refresh token used before. */
function rotatingServer() {
	const spent = new Set<string>();
	let issued = 1;
	const seen: string[] = [];
	const fetchImpl: typeof fetch = async (_input, init) => {
		const token = (init!.body as URLSearchParams).get('refresh_token')!;
		seen.push(token);
		await new Promise((resolve) => setTimeout(resolve, 5));
		if (spent.has(token)) return Response.json({ error: 'invalid_grant', error_description: 'Unknown refresh token' }, { status: 400 });
		spent.add(token);
		issued += 1;
		return Response.json({ access_token: `a${issued}`, token_type: 'bearer', refresh_token: `r${issued}` });
	};
	return { fetchImpl, seen };
}

const refresh = (fetchFn: typeof fetch, refreshToken: string) =>
	refreshAuthorization(SERVER, { clientInformation: CLIENT, refreshToken, fetchFn });

describe('shareRefreshes', () => {
	it('without it, the second of two overlapping refreshes is refused (the case it exists for)', async () => {
		const server = rotatingServer();
		const results = await Promise.allSettled([refresh(server.fetchImpl, 'r1'), refresh(server.fetchImpl, 'r1')]);
		expect(results.map((r) => r.status)).toEqual(['fulfilled', 'rejected']);
	});

	it('gives overlapping refreshes with one token the same new tokens, asking the server once', async () => {
		const server = rotatingServer();
		const shared = shareRefreshes(server.fetchImpl);
		const [first, second] = await Promise.all([refresh(shared, 'r1'), refresh(shared, 'r1')]);
		expect(first).toMatchObject({ access_token: 'a2', refresh_token: 'r2' });
		expect(second).toEqual(first);
		expect(server.seen).toEqual(['r1']);
	});

	it('answers a late refresh with a token just spent from that answer, and a new token goes to the server', async () => {
		const server = rotatingServer();
		const shared = shareRefreshes(server.fetchImpl);
		const first = await refresh(shared, 'r1');
		expect(await refresh(shared, 'r1')).toEqual(first);
		expect(await refresh(shared, first.refresh_token!)).toMatchObject({ access_token: 'a3', refresh_token: 'r3' });
		expect(server.seen).toEqual(['r1', 'r2']);
	});

	it('forgets a refresh that could not reach the server, and lets everything else through untouched', async () => {
		let calls = 0;
		const shared = shareRefreshes(async (_input, init) => {
			calls += 1;
			if (calls === 1) throw new TypeError('Failed to fetch');
			return Response.json({ method: init?.method ?? 'GET', access_token: 'a2', token_type: 'bearer' });
		});
		await expect(refresh(shared, 'r1')).rejects.toThrow('Failed to fetch');
		expect(await refresh(shared, 'r1')).toMatchObject({ access_token: 'a2' });
		expect(await (await shared(`${SERVER}/mcp`, { method: 'POST', body: '{}' })).json()).toMatchObject({ method: 'POST' });
		expect(calls).toBe(3);
	});
});
