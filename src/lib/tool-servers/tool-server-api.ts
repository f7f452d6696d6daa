// What the tool-server worker serves: connections to the user's MCP servers through the
// official SDK (Streamable HTTP, falling back to the older HTTP+SSE transport when a server
// refuses the POST), their tools, and calls with progress, a time limit and cancellation.
// Everything a server sends is read here, off the page's thread, and bounded before the page
// sees it.
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { SSEClientTransport, SseError } from '@modelcontextprotocol/sdk/client/sse.js';
import { StreamableHTTPClientTransport, StreamableHTTPError } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { ErrorCode, McpError, ResultSchema } from '@modelcontextprotocol/sdk/types.js';
import type { jsonSchemaValidator } from '@modelcontextprotocol/sdk/validation/types.js';
import { OAuthError } from '@modelcontextprotocol/sdk/server/auth/errors.js';
import { limitedFetch } from './limited-fetch';
import { boundedText } from './plain-text';
import { readToolList } from './read-tool-list';
import { readToolResult } from './read-tool-result';
import { keepImages } from './keep-images';
import { requestScopedFetch } from './request-scoped-fetch';
import { InsecureAddressError, requireSecureUrl, secureFetch } from './secure-url';
import { shareRefreshes } from './shared-refresh';
import { SIGN_IN_ENDED, SignInNeeded, storedSignIn, type SignInChange } from './stored-sign-in';
import type { CallProgress, CallResult, ServerInfo, ServerStatus, StoredOAuth } from './types';

/** What the worker needs of a server to connect: its address and, if any, its Authorization header or sign-in. */
export interface ConnectRequest {
	id: string;
	url: string;
	authorization: string;
	oauth?: StoredOAuth;
}

export interface CallRequest {
	serverId: string;
	callId: string;
	tool: string;
	args: Record<string, unknown>;
	timeoutMs: number;
}

/** Pages of tools/list read at the most (a server offering more is cut; see read-tool-list.ts). */
const MAX_TOOL_PAGES = 20;
/** Characters of a server's instructions kept for the system prompt. */
export const MAX_INSTRUCTIONS_CHARS = 8_000;
/** How long connecting (initialize and the tool list) may take. */
export const CONNECT_TIMEOUT_MS = 20_000;
const CLIENT_INFO = { name: 'palimpsest', version: '1' };

/** A server's text (a name, its instructions, an error), as plain text of at most `max` characters. */
function cleanText(value: unknown, max: number): string {
	return typeof value === 'string' ? boundedText(value, max) : '';
}

// Structured results are shown as JSON and never trusted, so they are not checked against the
// tool's output schema: compiling thousands of schemas a hostile server lists would be work for nothing.
const ACCEPT_ALL: jsonSchemaValidator = { getValidator: () => (input: unknown) => ({ valid: true, data: input as never, errorMessage: undefined }) };

interface Connection {
	client: Client;
	close(): Promise<void>;
}

/** Bounds the app uses; tests give smaller ones so a hung or huge server is quick to show. */
export interface ToolServerLimits {
	connectTimeoutMs?: number;
	maxResponseBytes?: number;
}

export function createToolServerApi(fetchImpl: typeof fetch = (input, init) => fetch(input, init), limits: ToolServerLimits = {}) {
	const connectTimeoutMs = limits.connectTimeoutMs ?? CONNECT_TIMEOUT_MS;
	// Every connection's refreshes share one answer per refresh token (see shared-refresh.ts);
	// nothing goes over plain http to another computer, whoever named the address.
	const bounded = secureFetch(limitedFetch(shareRefreshes(fetchImpl), limits.maxResponseBytes));
	const connections = new Map<string, Connection>();
	/** Each server's latest connect, so an earlier one still under way gives way to it. */
	const attempts = new Map<string, Promise<ServerStatus>>();
	const calls = new Map<string, AbortController>();

	async function open(request: ConnectRequest, onSignIn: (change: SignInChange) => void): Promise<Connection> {
		// A stored address is held to what Settings now takes, too.
		const url = requireSecureUrl(request.url, 'The tool server’s address');
		const headers: Record<string, string> = request.authorization ? { Authorization: request.authorization } : {};
		const authProvider = storedSignIn(request.oauth, onSignIn);
		const make = () => new Client(CLIENT_INFO, { capabilities: {}, jsonSchemaValidator: ACCEPT_ALL });
		const client = make();
		// A request whose answer was cut fails with why, as if the server had said so.
		const transport: StreamableHTTPClientTransport = new StreamableHTTPClientTransport(url, {
			requestInit: { headers },
			authProvider,
			fetch: requestScopedFetch(bounded, (id, reason) => transport.onmessage?.({ jsonrpc: '2.0', id, error: { code: ErrorCode.InternalError, message: reason } }))
		});
		try {
			await client.connect(transport, { timeout: connectTimeoutMs });
			return { client, close: () => client.close() };
		} catch (error) {
			await client.close().catch(() => {});
			// A server of the older HTTP+SSE transport refuses the POST (4xx other than 401).
			if (!(error instanceof StreamableHTTPError) || error.code === 401 || !error.code || error.code < 400 || error.code >= 500) throw error;
		}
		const legacy = make();
		await legacy.connect(new SSEClientTransport(url, { requestInit: { headers }, fetch: bounded, eventSourceInit: { fetch: bounded }, authProvider }), { timeout: connectTimeoutMs });
		return { client: legacy, close: () => legacy.close() };
	}

	// Requests answered under the loosest result schema: the SDK's strict one refuses a whole list
	// for one bad tool, where read-tool-list.ts keeps the good ones and says what it left out.
	// `until`: when connecting must be done by, however many pages a server lists slowly.
	async function listTools(client: Client, until: number) {
		const pages: unknown[] = [];
		let cursor: string | undefined;
		for (let page = 0; page < MAX_TOOL_PAGES; page++) {
			const result = await client.request({ method: 'tools/list', params: cursor ? { cursor } : {} }, ResultSchema, { timeout: Math.max(0, until - Date.now()) });
			if (Array.isArray(result.tools)) pages.push(...result.tools);
			cursor = typeof result.nextCursor === 'string' && result.nextCursor ? result.nextCursor : undefined;
			if (!cursor) break;
		}
		const list = readToolList(pages);
		if (cursor) list.notes.push(`The server has more tools than the ${MAX_TOOL_PAGES} pages of its list that were read; the rest were left out.`);
		return list;
	}

	async function drop(id: string): Promise<void> {
		const connection = connections.get(id);
		connections.delete(id);
		await connection?.close().catch(() => {});
	}

	/** `isCurrent()`: no newer connect or disconnect of the same server came since. */
	async function connectOnce(request: ConnectRequest, onSignIn: (change: SignInChange) => void, isCurrent: () => boolean): Promise<ServerStatus> {
		const until = Date.now() + connectTimeoutMs;
		await drop(request.id);
		let connection: Connection | undefined;
		try {
			connection = await open(request, onSignIn);
			if (!isCurrent()) {
				await connection.close().catch(() => {});
				return { state: 'failed', error: 'The server was disconnected.' };
			}
			connections.set(request.id, connection);
			const server = connection.client.getServerVersion();
			const info: ServerInfo = {
				name: cleanText(server?.name, 200) || new URL(request.url).host,
				version: cleanText(server?.version, 100),
				instructions: cleanText(connection.client.getInstructions(), MAX_INSTRUCTIONS_CHARS)
			};
			const tools = connection.client.getServerCapabilities()?.tools ? await listTools(connection.client, until) : { tools: [], notes: ['The server offers no tools.'] };
			return { state: 'connected', info, tools };
		} catch (error) {
			if (connection && connections.get(request.id) === connection) connections.delete(request.id);
			await connection?.close().catch(() => {});
			return describeFailure(error);
		}
	}

	return {
		/**
		 * Connects (again, if it was) and reads the server's name, instructions and tools. Of two
		 * connects of one server at once (its Authorization changed while it connected), the later
		 * one is kept, and both answer with its status. `onSignIn` hears of a stored sign-in's
		 * refreshed tokens, and of its end.
		 */
		connect(request: ConnectRequest, onSignIn: (change: SignInChange) => void = () => {}): Promise<ServerStatus> {
			const attempt: Promise<ServerStatus> = connectOnce(request, onSignIn, () => attempts.get(request.id) === attempt).then((status) => {
				const newest = attempts.get(request.id);
				return newest && newest !== attempt ? newest : status;
			});
			attempts.set(request.id, attempt);
			return attempt;
		},

		async disconnect(id: string): Promise<void> {
			attempts.delete(id);
			await drop(id);
		},

		/**
		 * Calls a tool; `onProgress` hears the server's progress notifications. Rejects on a
		 * failure of the call itself (the server gone, the time limit); a tool that reports an
		 * error resolves with `isError`.
		 */
		async call(request: CallRequest, onProgress: (progress: CallProgress) => void): Promise<CallResult> {
			const connection = connections.get(request.serverId);
			if (!connection) throw new Error('The tool server is not connected.');
			const controller = new AbortController();
			calls.set(request.callId, controller);
			try {
				const raw = await connection.client.request({ method: 'tools/call', params: { name: request.tool, arguments: request.args } }, ResultSchema, {
					signal: controller.signal,
					timeout: request.timeoutMs,
					maxTotalTimeout: request.timeoutMs,
					onprogress: (progress) => onProgress(readProgress(progress))
				});
				return await keepImages(readToolResult(raw));
			} catch (error) {
				if (controller.signal.aborted) throw new DOMException('The tool call was stopped.', 'AbortError');
				throw new Error(describeCallFailure(error, request.timeoutMs), { cause: error });
			} finally {
				calls.delete(request.callId);
			}
		},

		/** Stops a call: the server is sent notifications/cancelled. */
		cancel(callId: string): void {
			calls.get(callId)?.abort();
		}
	};
}

export type ToolServerApi = ReturnType<typeof createToolServerApi>;

function readProgress(raw: { progress?: unknown; total?: unknown; message?: unknown }): CallProgress {
	const progress: CallProgress = { progress: Number.isFinite(raw.progress) ? Number(raw.progress) : 0 };
	if (typeof raw.total === 'number' && Number.isFinite(raw.total)) progress.total = raw.total;
	if (typeof raw.message === 'string') progress.message = cleanText(raw.message, 200);
	return progress;
}

function messageOf(error: unknown): string {
	if (error instanceof McpError) return error.message.replace(/^MCP error -?\d+: /, '');
	return error instanceof Error ? error.message : String(error);
}

/** The HTTP status a transport failed with (the older transport's event stream too), if any. */
function statusOf(error: unknown): number | undefined {
	return error instanceof StreamableHTTPError || error instanceof SseError ? error.code : undefined;
}

/** What was wrong with an answer that was no MCP at all (a web page, not JSON, not JSON-RPC), if that was it. */
function notMcp(error: unknown): string | undefined {
	const type = error instanceof StreamableHTTPError && /Unexpected content type: (.*)/.exec(error.message)?.[1];
	if (type) return `it answered with ${cleanText(type, 100)}`;
	if (error instanceof SyntaxError) return 'its answer is not JSON';
	if (error instanceof Error && error.name === 'ZodError') return "its answer is not MCP's JSON-RPC";
	return undefined;
}

/** Why connecting failed, and what the user can do about it. */
export function describeFailure(error: unknown): ServerStatus {
	const code = statusOf(error);
	const message = messageOf(error);
	// A stored sign-in the server no longer takes, and that could not be renewed (or is not used, and the message says why).
	if (error instanceof SignInNeeded) return { state: 'failed', error: error.message, signIn: true };
	if (error instanceof OAuthError) return { state: 'failed', error: SIGN_IN_ENDED, signIn: true };
	if (error instanceof InsecureAddressError) return { state: 'failed', error: error.message };
	if (code === 401 || /\b401\b|unauthori[sz]ed/i.test(message)) {
		return { state: 'failed', error: 'The server wants you to sign in (it answered 401 Unauthorized). Sign in, or give an Authorization header it accepts.', signIn: true };
	}
	if (code === 403) return { state: 'failed', error: 'The server refused this app (403 Forbidden): check the Authorization header.' };
	if (error instanceof TypeError && /fetch|network/i.test(message)) {
		return {
			state: 'failed',
			error: 'The server cannot be reached from this page: check the URL and that the server is running, and that it lets this page in (CORS: it must allow this origin and the Mcp-Session-Id header). It is tried again when you reconnect.'
		};
	}
	if (/timed? ?out/i.test(message)) return { state: 'failed', error: 'The server did not answer in time. It is tried again when you reconnect.' };
	const wrong = notMcp(error);
	if (wrong) return { state: 'failed', error: `This address is not an MCP server (${wrong}): check that the URL is the server's MCP endpoint, often ending in /mcp.` };
	return { state: 'failed', error: `The server could not be used as an MCP tool server: ${cleanText(message, 300)}` };
}

function describeCallFailure(error: unknown, timeoutMs: number): string {
	const message = messageOf(error);
	if (/timed? ?out/i.test(message)) return `The tool did not answer within ${Math.round(timeoutMs / 1000)} s (Settings → Tool servers sets the limit).`;
	return `The tool server failed: ${cleanText(message, 500)}`;
}
