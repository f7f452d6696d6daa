// The tool-server API against real MCP servers in this process (the SDK's own server side, over
// Streamable HTTP and the older HTTP+SSE transport): what the user sees of a server (its status,
// tools and failures) and of a call (result, progress, time limit, Stop), and nothing thrown
// past the API. Hostile servers: tool-server-hostile.test.ts.
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { describe, expect, it, vi } from 'vitest';
import { z } from 'zod';
import { MAX_INSTRUCTIONS_CHARS } from './tool-server-api';
import { connected, failed, useApiHarness } from './test-api-harness';
import { sendJson, startHttpServer, startLegacySseServer, startStreamableServer, unusedPort, type SeenRequest } from './test-mcp-servers';
import type { CallProgress } from './types';

const { track, newApi } = useApiHarness();

/** What the server side of a hung tool saw. */
interface HangState {
	started: boolean;
	aborted: boolean;
}

/** A server of a few tools: echo, a failing one, one with progress, and one that hangs until cancelled. */
function toolServer(hang: HangState = { started: false, aborted: false }, instructions?: string): McpServer {
	const server = new McpServer({ name: 'Test tools', version: '2.1.0' }, instructions ? { instructions } : {});
	server.registerTool('echo', { description: 'Says the text back', inputSchema: { text: z.string() } }, ({ text }) => ({ content: [{ type: 'text', text }] }));
	server.registerTool('fail', { description: 'Always fails' }, () => ({ isError: true, content: [{ type: 'text', text: 'The disk is full.' }] }));
	server.registerTool('count', { description: 'Counts to three' }, async (extra) => {
		const progressToken = extra._meta?.progressToken;
		for (let i = 1; i <= 3; i++) {
			if (progressToken !== undefined) await extra.sendNotification({ method: 'notifications/progress', params: { progressToken, progress: i, total: 3, message: `step ${i}` } });
		}
		return { content: [{ type: 'text', text: 'counted' }] };
	});
	server.registerTool('hang', { description: 'Never answers' }, (extra) => {
		hang.started = true;
		return new Promise((resolve) => {
			extra.signal.addEventListener('abort', () => {
				hang.aborted = true;
				resolve({ content: [{ type: 'text', text: 'too late' }] });
			});
		});
	});
	return server;
}

describe('connecting', () => {
	it("reads the server's name, version, instructions (bounded) and tools", async () => {
		const server = track(await startStreamableServer(() => toolServer(undefined, `Use echo to repeat. ${'x'.repeat(20_000)}`)));
		const status = connected(await newApi().connect({ id: 's', url: server.url, authorization: '' }));
		expect(status.info.name).toBe('Test tools');
		expect(status.info.version).toBe('2.1.0');
		expect(status.info.instructions.startsWith('Use echo to repeat.')).toBe(true);
		expect(status.info.instructions.length).toBeLessThanOrEqual(MAX_INSTRUCTIONS_CHARS);
		expect(status.info.instructions.endsWith('…')).toBe(true);
		expect(status.tools.tools.map((tool) => tool.name)).toEqual(['echo', 'fail', 'count', 'hang']);
		const echo = status.tools.tools[0];
		expect(echo.description).toBe('Says the text back');
		expect(echo.inputSchema).toMatchObject({ type: 'object', properties: { text: { type: 'string' } }, required: ['text'] });
		expect(status.tools.notes).toEqual([]);
	});

	it('says so when a server offers no tools', async () => {
		const server = track(await startStreamableServer(() => new McpServer({ name: 'Empty', version: '1' })));
		const status = connected(await newApi().connect({ id: 's', url: server.url, authorization: '' }));
		expect(status.info).toEqual({ name: 'Empty', version: '1', instructions: '' });
		expect(status.tools).toEqual({ tools: [], notes: ['The server offers no tools.'] });
	});

	it('sends the Authorization header with every request when one is given, and none when not', async () => {
		const server = track(await startStreamableServer(() => toolServer()));
		const api = newApi();
		connected(await api.connect({ id: 's', url: server.url, authorization: 'Bearer sesame' }));
		await api.call({ serverId: 's', callId: 'c1', tool: 'echo', args: { text: 'hi' }, timeoutMs: 10_000 }, () => {});
		const posts = server.seen.requests.filter((request) => request.method === 'POST');
		expect(posts.length).toBeGreaterThanOrEqual(3);
		for (const request of posts) expect(request.headers.authorization).toBe('Bearer sesame');

		server.seen.requests.length = 0;
		connected(await api.connect({ id: 't', url: server.url, authorization: '' }));
		expect(server.seen.requests.length).toBeGreaterThan(0);
		for (const request of server.seen.requests) expect(request.headers.authorization).toBeUndefined();
	});
});

describe('calling a tool', () => {
	it("reads a tool's text result", async () => {
		const server = track(await startStreamableServer(() => toolServer()));
		const api = newApi();
		connected(await api.connect({ id: 's', url: server.url, authorization: '' }));
		const result = await api.call({ serverId: 's', callId: 'c1', tool: 'echo', args: { text: 'hello <b>there</b>' }, timeoutMs: 10_000 }, () => {});
		expect(result).toEqual({ isError: false, forModel: 'hello <b>there</b>', parts: [{ type: 'text', text: 'hello <b>there</b>' }], images: [] });
	});

	it('resolves with isError when the tool reports an error', async () => {
		const server = track(await startStreamableServer(() => toolServer()));
		const api = newApi();
		connected(await api.connect({ id: 's', url: server.url, authorization: '' }));
		const result = await api.call({ serverId: 's', callId: 'c1', tool: 'fail', args: {}, timeoutMs: 10_000 }, () => {});
		expect(result.isError).toBe(true);
		expect(result.forModel).toBe('The tool reported an error: The disk is full.');
	});

	it("passes the server's progress notifications on", async () => {
		const server = track(await startStreamableServer(() => toolServer()));
		const api = newApi();
		connected(await api.connect({ id: 's', url: server.url, authorization: '' }));
		const progress: CallProgress[] = [];
		const result = await api.call({ serverId: 's', callId: 'c1', tool: 'count', args: {}, timeoutMs: 10_000 }, (p) => progress.push(p));
		expect(result.forModel).toBe('counted');
		expect(progress).toEqual([
			{ progress: 1, total: 3, message: 'step 1' },
			{ progress: 2, total: 3, message: 'step 2' },
			{ progress: 3, total: 3, message: 'step 3' }
		]);
	});

	it('ends a hung tool at the time limit, says where the limit is set, and tells the server', async () => {
		const hang = { started: false, aborted: false };
		const server = track(await startStreamableServer(() => toolServer(hang)));
		const api = newApi();
		connected(await api.connect({ id: 's', url: server.url, authorization: '' }));
		const started = Date.now();
		await expect(api.call({ serverId: 's', callId: 'c1', tool: 'hang', args: {}, timeoutMs: 1000 }, () => {})).rejects.toThrow(
			'The tool did not answer within 1 s (Settings → Tool servers sets the limit).'
		);
		expect(Date.now() - started).toBeLessThan(5000);
		await vi.waitFor(() => expect(hang.aborted).toBe(true));
	});

	it('Stop (cancel) ends the call at once and the server receives notifications/cancelled', async () => {
		const hang = { started: false, aborted: false };
		const server = track(await startStreamableServer(() => toolServer(hang)));
		const api = newApi();
		connected(await api.connect({ id: 's', url: server.url, authorization: '' }));
		const call = api.call({ serverId: 's', callId: 'c1', tool: 'hang', args: {}, timeoutMs: 60_000 }, () => {});
		const settled = call.catch((error: unknown) => error);
		await vi.waitFor(() => expect(hang.started).toBe(true));
		const stopped = Date.now();
		api.cancel('c1');
		const error = await settled;
		expect(Date.now() - stopped).toBeLessThan(1000);
		expect(error).toBeInstanceOf(DOMException);
		expect((error as DOMException).name).toBe('AbortError');
		const request = server.seen.messages.find((message) => message.method === 'tools/call');
		await vi.waitFor(() => expect(server.seen.messages).toContainEqual(expect.objectContaining({ method: 'notifications/cancelled', params: expect.objectContaining({ requestId: request?.id }) })));
		await vi.waitFor(() => expect(hang.aborted).toBe(true));
		// The answer's stream, which the server keeps open for a result it will never send, is closed.
		await vi.waitFor(() => expect(server.seen.requests.find((seen) => seen.message === request)?.closed).toBe(true));
	});

	it('refuses a call to a server that is not connected', async () => {
		await expect(newApi().call({ serverId: 'nope', callId: 'c1', tool: 'echo', args: {}, timeoutMs: 1000 }, () => {})).rejects.toThrow('The tool server is not connected.');
	});
});

describe('the older HTTP+SSE transport', () => {
	for (const refusal of [404, 405] as const) {
		it(`connects and calls through it when the server answers the POST with ${refusal}`, async () => {
			const server = track(await startLegacySseServer(() => toolServer(), refusal));
			const api = newApi();
			const status = connected(await api.connect({ id: 's', url: server.url, authorization: 'Bearer sesame' }));
			expect(status.info.name).toBe('Test tools');
			expect(status.tools.tools.map((tool) => tool.name)).toContain('echo');
			const result = await api.call({ serverId: 's', callId: 'c1', tool: 'echo', args: { text: 'over SSE' }, timeoutMs: 10_000 }, () => {});
			expect(result.forModel).toBe('over SSE');
			expect(server.seen.requests.some((request) => request.method === 'GET')).toBe(true);
			for (const request of server.seen.requests) expect(request.headers.authorization).toBe('Bearer sesame');
		});
	}
});

describe('failures, described for the user', () => {
	it('a server nobody runs at the address', async () => {
		const port = await unusedPort();
		const status = failed(await newApi().connect({ id: 's', url: `http://127.0.0.1:${port}/mcp`, authorization: '' }));
		expect(status.error).toMatch(/^The server cannot be reached from this page: check the URL and that the server is running/);
		expect(status.signIn).toBeUndefined();
	});

	it('401 with WWW-Authenticate offers sign-in', async () => {
		const server = track(
			await startHttpServer((_req, res) => void res.writeHead(401, { 'www-authenticate': 'Bearer resource_metadata="http://127.0.0.1/.well-known/oauth-protected-resource"' }).end('Unauthorized'))
		);
		const status = failed(await newApi().connect({ id: 's', url: server.url, authorization: '' }));
		expect(status.signIn).toBe(true);
		expect(status.error).toMatch(/sign in/);
	});

	it('403 says to check the Authorization header', async () => {
		const server = track(await startHttpServer((_req, res) => void res.writeHead(403).end('Forbidden')));
		const status = failed(await newApi().connect({ id: 's', url: server.url, authorization: 'Bearer wrong' }));
		expect(status.error).toBe('The server refused this app (403 Forbidden): check the Authorization header.');
		expect(status.signIn).toBeUndefined();
	});

	const NOT_MCP = "check that the URL is the server's MCP endpoint, often ending in /mcp.";

	it('a web page instead of an MCP server', async () => {
		const server = track(await startHttpServer((_req, res) => void res.writeHead(200, { 'content-type': 'text/html' }).end('<html><body><script>alert(1)</script></body></html>')));
		const status = failed(await newApi().connect({ id: 's', url: server.url, authorization: '' }));
		expect(status.error).toBe(`This address is not an MCP server (it answered with text/html): ${NOT_MCP}`);
	});

	it('an answer that is not JSON-RPC', async () => {
		const server = track(await startHttpServer((_req, res) => sendJson(res, { hello: 'world' })));
		const status = failed(await newApi().connect({ id: 's', url: server.url, authorization: '' }));
		expect(status.error).toBe(`This address is not an MCP server (its answer is not MCP's JSON-RPC): ${NOT_MCP}`);
	});

	it('an answer that is not JSON at all', async () => {
		const server = track(await startHttpServer((_req, res) => void res.writeHead(200, { 'content-type': 'application/json' }).end('{"jsonrpc": "2.0", "id": 0, "res')));
		const status = failed(await newApi().connect({ id: 's', url: server.url, authorization: '' }));
		expect(status.error).toBe(`This address is not an MCP server (its answer is not JSON): ${NOT_MCP}`);
	});

	it('a server that never answers initialize fails at the connect time limit', async () => {
		const server = track(await startHttpServer(() => {}));
		const started = Date.now();
		const status = failed(await newApi({ connectTimeoutMs: 500 }).connect({ id: 's', url: server.url, authorization: '' }));
		expect(status.error).toBe('The server did not answer in time. It is tried again when you reconnect.');
		expect(Date.now() - started).toBeLessThan(5000);
	});
});

describe('disconnecting and connecting again', () => {
	const sessionOf = (request: SeenRequest) => request.headers['mcp-session-id'];

	it('disconnect closes the connection and ends calls to it; connect opens a new one', async () => {
		const server = track(await startStreamableServer(() => toolServer()));
		const api = newApi();
		connected(await api.connect({ id: 's', url: server.url, authorization: '' }));
		await api.disconnect('s');
		await vi.waitFor(() => expect(server.seen.requests.filter((request) => !request.closed)).toEqual([]));
		await expect(api.call({ serverId: 's', callId: 'c1', tool: 'echo', args: { text: 'hi' }, timeoutMs: 5000 }, () => {})).rejects.toThrow('The tool server is not connected.');

		connected(await api.connect({ id: 's', url: server.url, authorization: '' }));
		expect(await api.call({ serverId: 's', callId: 'c2', tool: 'echo', args: { text: 'again' }, timeoutMs: 5000 }, () => {})).toMatchObject({ forModel: 'again' });
		expect(server.seen.messages.filter((message) => message.method === 'initialize')).toHaveLength(2);
	});

	it('connecting again replaces the connection: the old one is closed and calls use the new one', async () => {
		const server = track(await startStreamableServer(() => toolServer()));
		const api = newApi();
		connected(await api.connect({ id: 's', url: server.url, authorization: 'Bearer old' }));
		connected(await api.connect({ id: 's', url: server.url, authorization: 'Bearer new' }));
		await api.call({ serverId: 's', callId: 'c1', tool: 'echo', args: { text: 'hi' }, timeoutMs: 5000 }, () => {});
		const call = server.seen.requests.find((request) => request.message?.method === 'tools/call')!;
		expect(call.headers.authorization).toBe('Bearer new');
		const old = server.seen.requests.filter((request) => request.headers.authorization === 'Bearer old');
		expect(old.length).toBeGreaterThan(0);
		expect(old.every((request) => request.closed && sessionOf(request) !== sessionOf(call))).toBe(true);
	});

	it('of two connects at once, the later one wins, whichever answers first', async () => {
		// The first initialize is held back, so the first connect finishes after the second.
		let initializes = 0;
		const server = track(await startStreamableServer(() => toolServer(), () => new Promise((resolve) => setTimeout(resolve, initializes++ === 0 ? 300 : 0))));
		const api = newApi();
		const first = api.connect({ id: 's', url: server.url, authorization: 'Bearer old' });
		await vi.waitFor(() => expect(initializes).toBe(1));
		const second = api.connect({ id: 's', url: server.url, authorization: 'Bearer new' });
		const [a, b] = await Promise.all([first, second]);
		expect(connected(a)).toEqual(connected(b));
		await api.call({ serverId: 's', callId: 'c1', tool: 'echo', args: { text: 'hi' }, timeoutMs: 5000 }, () => {});
		expect(server.seen.requests.find((request) => request.message?.method === 'tools/call')?.headers.authorization).toBe('Bearer new');
		await vi.waitFor(() => expect(server.seen.requests.filter((request) => request.headers.authorization === 'Bearer old' && !request.closed)).toEqual([]));
	});

	it('a disconnect while connecting leaves no connection behind', async () => {
		let release = () => {};
		const server = track(await startStreamableServer(() => toolServer(), () => new Promise<void>((resolve) => (release = resolve))));
		const api = newApi();
		const connecting = api.connect({ id: 's', url: server.url, authorization: '' });
		await vi.waitFor(() => expect(server.seen.messages.some((message) => message.method === 'initialize')).toBe(true));
		await api.disconnect('s');
		release();
		expect(failed(await connecting).error).toBe('The server was disconnected.');
		await expect(api.call({ serverId: 's', callId: 'c1', tool: 'echo', args: { text: 'hi' }, timeoutMs: 5000 }, () => {})).rejects.toThrow('The tool server is not connected.');
		await vi.waitFor(() => expect(server.seen.requests.filter((request) => !request.closed)).toEqual([]));
	});
});
