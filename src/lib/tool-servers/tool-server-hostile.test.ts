// The tool-server API against hand-written hostile servers: each way a server can be too much
// (too many tools, huge answers, endless streams, slow drips) is bounded, said plainly, and fast.
import { describe, expect, it, vi } from 'vitest';
import { openEventStream, sendJson, startScriptedServer } from './test-mcp-servers';
import { connected, failed, useApiHarness } from './test-api-harness';
import type { CallProgress } from './types';

const { track, newApi } = useApiHarness();

/** `count` tools named tool-0, tool-1, … with a plain schema. */
function manyTools(count: number, from = 0) {
	return Array.from({ length: count }, (_, i) => ({ name: `tool-${from + i}`, description: `Tool ${from + i}`, inputSchema: { type: 'object', properties: {} } }));
}

/** Writes `bytes` of a JSON-RPC result's text in chunks, as fast as the client reads, until it is done or the client went away. */
async function writeHugeText(res: import('node:http').ServerResponse, prefix: string, bytes: number, suffix: string): Promise<void> {
	const chunk = 'x'.repeat(64 * 1024);
	const drained = () =>
		new Promise<void>((resolve) => {
			const done = () => {
				res.off('drain', done);
				res.off('close', done);
				resolve();
			};
			res.on('drain', done);
			res.on('close', done);
		});
	res.write(prefix);
	for (let written = 0; written < bytes && !res.destroyed; written += chunk.length) {
		if (!res.write(chunk)) await drained();
	}
	if (!res.destroyed) res.end(suffix);
}

describe('hostile servers, each bounded', () => {
	it('keeps 500 of 10,000 tools and says how many were left out', async () => {
		const server = track(await startScriptedServer((message, res) => sendJson(res, { jsonrpc: '2.0', id: message.id, result: { tools: manyTools(10_000) } })));
		const status = connected(await newApi().connect({ id: 's', url: server.url, authorization: '' }));
		expect(status.tools.tools).toHaveLength(500);
		expect(status.tools.tools[499].name).toBe('tool-499');
		expect(status.tools.notes).toEqual(['9,500 more tools were left out: a server may offer at most 500.']);
	});

	it('reads a bounded number of pages of a tool list without end, and says there were more', async () => {
		let pages = 0;
		const server = track(
			await startScriptedServer((message, res) => {
				pages++;
				sendJson(res, { jsonrpc: '2.0', id: message.id, result: { tools: manyTools(1, pages), nextCursor: `page-${pages}` } });
			})
		);
		const status = connected(await newApi().connect({ id: 's', url: server.url, authorization: '' }));
		expect(pages).toBe(20);
		expect(status.tools.tools).toHaveLength(20);
		expect(status.tools.notes).toEqual(['The server has more tools than the 20 pages of its list that were read; the rest were left out.']);
	});

	it('gives up on a tool list that comes too slowly, page after page, at the connect time limit', async () => {
		let pages = 0;
		const server = track(
			await startScriptedServer(async (message, res) => {
				pages++;
				await new Promise((resolve) => setTimeout(resolve, 150));
				sendJson(res, { jsonrpc: '2.0', id: message.id, result: { tools: manyTools(1, pages), nextCursor: `page-${pages}` } });
			})
		);
		const started = Date.now();
		const status = failed(await newApi({ connectTimeoutMs: 600 }).connect({ id: 's', url: server.url, authorization: '' }));
		expect(status.error).toBe('The server did not answer in time. It is tried again when you reconnect.');
		expect(Date.now() - started).toBeLessThan(2000);
		expect(pages).toBeLessThan(10);
	});

	it('keeps the good tools of a list with broken ones', async () => {
		const tools = [
			{ name: 'good-1', inputSchema: { type: 'object' } },
			{ name: 'bad-schema', inputSchema: 'not a schema' },
			{ description: 'no name at all', inputSchema: { type: 'object' } },
			'not even an object',
			{ name: 'good-2', description: 42, inputSchema: { type: 'object' } }
		];
		const server = track(await startScriptedServer((message, res) => sendJson(res, { jsonrpc: '2.0', id: message.id, result: { tools } })));
		const status = connected(await newApi().connect({ id: 's', url: server.url, authorization: '' }));
		expect(status.tools.tools.map((tool) => tool.name)).toEqual(['good-1', 'good-2']);
		expect(status.tools.notes).toHaveLength(2);
		expect(status.tools.notes[0]).toMatch(/^Tool "bad-schema" was left out: /);
		expect(status.tools.notes[1]).toMatch(/^2 tools were left out for want of a usable name/);
	});

	it('keeps HTML in names, descriptions and results as text', async () => {
		const html = '<img src=x onerror="alert(1)"><script>alert(2)</script>';
		const server = track(
			await startScriptedServer((message, res) => {
				if (message.method === 'tools/list') {
					return sendJson(res, { jsonrpc: '2.0', id: message.id, result: { tools: [{ name: 'page', title: `<b>Bold</b>`, description: html, inputSchema: { type: 'object' } }] } });
				}
				sendJson(res, { jsonrpc: '2.0', id: message.id, result: { content: [{ type: 'text', text: html }] } });
			})
		);
		const api = newApi();
		const status = connected(await api.connect({ id: 's', url: server.url, authorization: '' }));
		expect(status.tools.tools).toEqual([{ name: 'page', title: '<b>Bold</b>', description: html, inputSchema: { type: 'object', properties: {} } }]);
		const result = await api.call({ serverId: 's', callId: 'c1', tool: 'page', args: {}, timeoutMs: 5000 }, () => {});
		expect(result.parts).toEqual([{ type: 'text', text: html }]);
	});

	// The same huge result, as a JSON answer and as an event stream.
	const framings = [
		{ as: 'JSON answer', open: (res: import('node:http').ServerResponse) => res.writeHead(200, { 'content-type': 'application/json' }), before: '', after: '"}]}}' },
		{ as: 'event stream', open: openEventStream, before: 'event: message\ndata: ', after: '"}]}}\n\n' }
	];
	it.each(framings)('fails a call whose $as is past the response bound, with what happened', async ({ open, before, after }) => {
		const server = track(
			await startScriptedServer((message, res) => {
				if (message.method === 'tools/list') return sendJson(res, { jsonrpc: '2.0', id: message.id, result: { tools: manyTools(1) } });
				open(res);
				return writeHugeText(res, `${before}{"jsonrpc":"2.0","id":${message.id},"result":{"content":[{"type":"text","text":"`, 50 * 1024 * 1024, after);
			})
		);
		const api = newApi({ maxResponseBytes: 1024 * 1024 });
		connected(await api.connect({ id: 's', url: server.url, authorization: '' }));
		const started = Date.now();
		await expect(api.call({ serverId: 's', callId: 'c1', tool: 'tool-0', args: {}, timeoutMs: 20_000 }, () => {})).rejects.toThrow(
			'The tool server failed: The tool server sent more than 1 MB in one answer; the rest was not read.'
		);
		expect(Date.now() - started).toBeLessThan(10_000);
	});

	it('ends a call whose event stream never brings the result at the time limit, and stops reading it', async () => {
		let streamClosed = false;
		const server = track(
			await startScriptedServer((message, res) => {
				if (message.method === 'tools/list') return sendJson(res, { jsonrpc: '2.0', id: message.id, result: { tools: manyTools(1) } });
				const stream = openEventStream(res);
				const progressToken = (message.params?._meta as { progressToken?: unknown } | undefined)?.progressToken;
				let progress = 0;
				const timer = setInterval(() => stream.send({ jsonrpc: '2.0', method: 'notifications/progress', params: { progressToken, progress: ++progress } }), 20);
				res.once('close', () => {
					clearInterval(timer);
					streamClosed = true;
				});
			})
		);
		const api = newApi();
		connected(await api.connect({ id: 's', url: server.url, authorization: '' }));
		const progress: CallProgress[] = [];
		await expect(api.call({ serverId: 's', callId: 'c1', tool: 'tool-0', args: {}, timeoutMs: 1000 }, (p) => progress.push(p))).rejects.toThrow(
			'The tool did not answer within 1 s (Settings → Tool servers sets the limit).'
		);
		expect(progress.length).toBeGreaterThan(0);
		await vi.waitFor(() => expect(streamClosed).toBe(true), { timeout: 3000 });
	});
});
