// MCP servers for the tool-server API's tests, started in this process on free loopback ports:
// real ones built with the SDK's server side (Streamable HTTP, and the older HTTP+SSE
// transport), and hand-written ones that send what the SDK would never send. Test-only.
import { randomUUID } from 'node:crypto';
import { createServer, type IncomingHttpHeaders, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { SSEServerTransport } from '@modelcontextprotocol/sdk/server/sse.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';

export interface TestServer {
	/** Where the client connects. */
	url: string;
	/** What reached the server: each HTTP request (and whether its connection closed since), and each JSON-RPC message posted. */
	seen: { requests: SeenRequest[]; messages: JsonRpcMessage[] };
	close(): Promise<void>;
}

export interface JsonRpcMessage {
	jsonrpc: '2.0';
	id?: number | string;
	method?: string;
	params?: Record<string, unknown>;
}

export interface SeenRequest {
	method: string;
	headers: IncomingHttpHeaders;
	message?: JsonRpcMessage;
	closed: boolean;
}

type Handler = (req: IncomingMessage, res: ServerResponse, message?: JsonRpcMessage) => void | Promise<void>;

/** An HTTP server on a free loopback port; a POST's JSON body is read and logged before `handler` sees it. */
export async function startHttpServer(handler: Handler, path = '/mcp'): Promise<TestServer> {
	const seen: TestServer['seen'] = { requests: [], messages: [] };
	const server = createServer(async (req, res) => {
		// A client that went away mid-answer is what some tests do on purpose.
		res.on('error', () => {});
		const request: SeenRequest = { method: req.method ?? '', headers: req.headers, closed: false };
		seen.requests.push(request);
		res.once('close', () => (request.closed = true));
		let message: JsonRpcMessage | undefined;
		if (req.method === 'POST') {
			const chunks: Buffer[] = [];
			for await (const chunk of req) chunks.push(chunk as Buffer);
			try {
				message = JSON.parse(Buffer.concat(chunks).toString('utf8')) as JsonRpcMessage;
				request.message = message;
				seen.messages.push(message);
			} catch {
				message = undefined;
			}
		}
		try {
			await handler(req, res, message);
		} catch (error) {
			if (!res.headersSent) res.writeHead(500).end(String(error));
		}
	});
	await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
	const { port } = server.address() as AddressInfo;
	return {
		url: `http://127.0.0.1:${port}${path}`,
		seen,
		close: () =>
			new Promise<void>((resolve) => {
				server.closeAllConnections();
				server.close(() => resolve());
			})
	};
}

/** A port nothing listens on. */
export async function unusedPort(): Promise<number> {
	const server = await startHttpServer(() => {});
	const { port } = new URL(server.url);
	await server.close();
	return Number(port);
}

/**
 * A real MCP server over Streamable HTTP, with sessions; `build` makes the server of each
 * session, and `beforeInitialize` may hold an initialize request back a while.
 */
export async function startStreamableServer(build: () => McpServer, beforeInitialize?: (req: IncomingMessage) => Promise<void>): Promise<TestServer> {
	const sessions = new Map<string, StreamableHTTPServerTransport>();
	const closing: Array<() => Promise<void>> = [];
	const http = await startHttpServer(async (req, res, message) => {
		const id = req.headers['mcp-session-id'];
		const existing = typeof id === 'string' ? sessions.get(id) : undefined;
		if (existing) return existing.handleRequest(req, res, message);
		if (req.method !== 'POST' || message?.method !== 'initialize') {
			res.writeHead(404, { 'content-type': 'application/json' }).end(JSON.stringify({ jsonrpc: '2.0', error: { code: -32001, message: 'Session not found' }, id: null }));
			return;
		}
		await beforeInitialize?.(req);
		const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: randomUUID, onsessioninitialized: (sessionId) => void sessions.set(sessionId, transport) });
		const server = build();
		closing.push(() => server.close());
		await server.connect(transport);
		await transport.handleRequest(req, res, message);
	});
	return { ...http, close: async () => (await Promise.all(closing.map((close) => close())), http.close()) };
}

/**
 * A real MCP server of the older HTTP+SSE transport only: GET opens the event stream, messages
 * are posted to the endpoint it names, and a POST to the URL itself is refused with `refuseWith`.
 */
export async function startLegacySseServer(build: () => McpServer, refuseWith: 404 | 405 = 405): Promise<TestServer> {
	const sessions = new Map<string, SSEServerTransport>();
	const closing: Array<() => Promise<void>> = [];
	const http = await startHttpServer(async (req, res, message) => {
		const url = new URL(req.url ?? '/', 'http://localhost');
		if (req.method === 'GET' && url.pathname === '/mcp') {
			const transport = new SSEServerTransport('/messages', res);
			sessions.set(transport.sessionId, transport);
			const server = build();
			closing.push(() => server.close());
			await server.connect(transport);
			return;
		}
		const transport = sessions.get(url.searchParams.get('sessionId') ?? '');
		if (req.method === 'POST' && url.pathname === '/messages' && transport) return transport.handlePostMessage(req, res, message);
		res.writeHead(refuseWith).end();
	});
	return { ...http, close: async () => (await Promise.all(closing.map((close) => close())), http.close()) };
}

/**
 * A hand-written Streamable HTTP server: it answers `initialize` like a server of tools,
 * accepts notifications, has no GET stream, and lets `answer` deal with every other request.
 */
export async function startScriptedServer(answer: (message: JsonRpcMessage, res: ServerResponse) => void | Promise<void>): Promise<TestServer> {
	return startHttpServer(async (req, res, message) => {
		if (req.method !== 'POST') return void res.writeHead(405).end();
		if (!message) return void res.writeHead(400).end();
		if (message.id === undefined) return void res.writeHead(202).end();
		if (message.method === 'initialize') {
			return sendJson(res, {
				jsonrpc: '2.0',
				id: message.id,
				result: { protocolVersion: message.params?.protocolVersion, capabilities: { tools: {} }, serverInfo: { name: 'scripted', version: '1' } }
			});
		}
		await answer(message, res);
	});
}

export function sendJson(res: ServerResponse, body: unknown): void {
	res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(body));
}

/** Starts an event stream answer; `send` writes one JSON-RPC message as an event. */
export function openEventStream(res: ServerResponse): { send(message: unknown): boolean } {
	res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
	res.flushHeaders();
	return { send: (message) => res.write(`event: message\ndata: ${JSON.stringify(message)}\n\n`) };
}
