// A local mock LLM server speaking the real OpenAI Chat Completions, OpenAI Responses and
// Anthropic Messages SSE protocols, with CORS, so unit tests and the browser app can be
// scripted against it, the providers' own compaction included.
//
// Routes: POST …/chat/completions (OpenAI), POST …/responses (OpenAI Responses), POST
// …/responses/compact (its compaction on demand), POST …/messages (Anthropic; with a
// `compaction` parameter, its compaction on demand), GET …/models. Compaction on demand always
// answers at once (never from the script): `enc_mock_N` / `sig_mock_N` name the Nth call.
// Control (for a mock running in another process): POST /__mock/script with a JSON array of
// responses, POST /__mock/titles with those of title requests, GET /__mock/requests, POST /__mock/reset.
// A title request (the app naming a session after its first answer: its instructions begin with
// TITLE_MARK) is answered from a queue of its own and recorded apart, so the answers and requests
// of the conversation stay as a test scripted them; unscripted, it is refused (400), and the
// session keeps its title from the first message.
// Run standalone: node tests/support/mock-provider.mjs [--port 4010]

import { createServer } from 'node:http';
import { pathToFileURL } from 'node:url';
import { anthropicSummaryReply, compactReply, responsesWriter } from './mock-responses.mjs';
import { anthropicWriter, openAIWriter } from './mock-wire.mjs';

/**
 * One scripted answer; each chat request takes the next one, then the default answer
 * ("Mock answer to: <last user message>") resumes. `finish` ends a text answer with another
 * reason: 'length' is cut off by the output limit (OpenAI `finish_reason: "length"`, Anthropic
 * `max_tokens`), 'context_window_exceeded' is Anthropic's `model_context_window_exceeded`, and
 * any other string is sent as the wire's own reason (e.g. 'content_filter', 'refusal').
 * `reply` answers with a whole body that is not an event stream (`status` 200 by default), as
 * servers that ignore `stream: true` or report errors with 200 do; `raw` sends its text as an
 * event stream, byte for byte, for frames no writer produces (`data: null`).
 * `waitFor` (in-process only) holds a text answer, its first bytes sent, until the promise settles.
 * `compaction` has the server compact on its own before the text (an OpenAI Responses
 * `compaction` item, an Anthropic `compaction` block; `content: null` is Anthropic's failed
 * compaction); `clearedToolUses` reports Anthropic's context editing (`applied_edits`).
 * @typedef {import('./mock-wire.mjs').Usage} Usage
 * @typedef {{ content?: string | null, encrypted_content?: string }} ServerCompaction
 * @typedef {{ type: 'text', text: string, chunks?: number, delayMs?: number, usage?: Usage, finish?: string,
 *   compaction?: ServerCompaction, clearedToolUses?: number, waitFor?: Promise<unknown> }
 *   | { type: 'reply', body: string | object, contentType?: string, status?: number }
 *   | { type: 'raw', text: string }
 *   | { type: 'tool_call', name: string, arguments: string | object, id?: string, text?: string }
 *   | { type: 'http_error', status: number, body?: string | object, headers?: Record<string, string> }
 *   | { type: 'stream_error', text?: string, message?: string }
 *   | { type: 'cut', text?: string }
 *   | { type: 'hang', text?: string }} MockResponse
 * `abortedByClient` turns true when the client hung up before the answer was complete
 * (how tests see that Stop really aborted the fetch).
 * @typedef {import('node:http').IncomingHttpHeaders} Headers
 * @typedef {{ method: string, path: string, headers: Headers, body: any, abortedByClient: boolean }} RecordedRequest
 */

/** The first words of the app's title request (agent/title-request.ts). */
export const TITLE_MARK = 'Write a title for the conversation below';

const CORS = {
	'access-control-allow-origin': '*',
	'access-control-allow-methods': 'GET, POST, OPTIONS',
	'access-control-allow-headers':
		'authorization, content-type, accept, x-api-key, anthropic-version, anthropic-beta, ' +
		'anthropic-dangerous-direct-browser-access',
	'access-control-expose-headers': 'retry-after, x-should-retry',
	'access-control-max-age': '600'
};

/** @param {number} ms */
const wait = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * Text of the last user message, whether content is a string or a list of parts/blocks.
 * @param {any} body @returns {string}
 */
function lastUserText(body) {
	/** @type {{ role: string, content: any }[]} */
	const messages = body?.messages ?? body?.input ?? [];
	const content = messages.filter((m) => m.role === 'user').at(-1)?.content ?? '';
	if (typeof content === 'string') return content;
	return content.map((/** @type {any} */ part) => part.text ?? (typeof part.content === 'string' ? part.content : '')).join('');
}

/** @typedef {'openai' | 'anthropic' | 'responses'} Wire */

/** A compaction the server makes on its own, in `wire`'s shape. @param {Wire} wire @param {ServerCompaction} spec @param {number} call */
function serverCompaction(wire, spec, call) {
	if (wire === 'responses') return { type: 'compaction', id: `cmp_stream_${call}`, encrypted_content: spec.encrypted_content ?? `enc_stream_${call}` };
	const content = spec.content === undefined ? `Mock server summary ${call}.` : spec.content;
	return { type: 'compaction', content, ...(spec.encrypted_content === undefined ? {} : { encrypted_content: spec.encrypted_content }) };
}

/**
 * Splits text into `count` pieces of whole code points (never half a character), or into
 * words when no count is given.
 * @param {string} text @param {number} [count]
 */
function split(text, count) {
	if (count === undefined) return text.match(/\S+\s*|\s+/g) ?? [];
	const chars = Array.from(text);
	const size = Math.max(1, Math.ceil(chars.length / Math.max(1, count)));
	const pieces = [];
	for (let i = 0; i < chars.length; i += size) pieces.push(chars.slice(i, i + size).join(''));
	return pieces;
}

const estimate = (/** @type {string} */ text) => Math.max(1, Math.ceil(text.length / 4));

/**
 * @param {{ port?: number }} [options]
 * @typedef {object} MockProvider
 * @property {string} url Origin to use as base URL (OpenAI-compatible: `${url}/v1`).
 * @property {RecordedRequest[]} requests Every request except preflights, in arrival order.
 * @property {(responses: MockResponse[]) => void} script Queues answers for the next chat requests.
 * @property {RecordedRequest[]} titleRequests The title requests, apart from `requests`.
 * @property {(responses: MockResponse[]) => void} scriptTitles Queues answers for the next title requests.
 * @property {() => void} reset Clears the queue and the recorded requests.
 * @property {() => Promise<void>} close Stops the server, cutting hanging streams.
 */

/**
 * @param {{ port?: number }} [options]
 * @returns {Promise<MockProvider>}
 */
export async function startMockProvider({ port = 0 } = {}) {
	/** @type {RecordedRequest[]} */
	const requests = [];
	/** @type {MockResponse[]} */
	const queue = [];
	/** @type {RecordedRequest[]} */
	const titleRequests = [];
	/** @type {MockResponse[]} */
	const titles = [];
	let compactions = 0;

	/**
	 * @param {import('node:http').ServerResponse} res @param {MockResponse} response
	 * @param {any} body @param {Wire} wire
	 */
	async function answer(res, response, body, wire) {
		if (response.type === 'http_error') {
			const payload = response.body ?? { error: { message: 'Mock error', type: 'mock_error' } };
			const isText = typeof payload === 'string';
			res.writeHead(response.status, {
				...CORS,
				'content-type': isText ? 'text/plain' : 'application/json',
				...response.headers
			});
			return void res.end(isText ? payload : JSON.stringify(payload));
		}
		if (response.type === 'reply') {
			const isText = typeof response.body === 'string';
			const type = response.contentType ?? (isText ? 'text/plain' : 'application/json');
			res.writeHead(response.status ?? 200, { ...CORS, 'content-type': type });
			return void res.end(isText ? response.body : JSON.stringify(response.body));
		}
		if (response.type === 'raw') {
			res.writeHead(200, { ...CORS, 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
			return void res.end(response.text);
		}
		res.writeHead(200, { ...CORS, 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
		const model = String(body?.model ?? 'mock-model');
		const writers = { anthropic: anthropicWriter, responses: responsesWriter, openai: openAIWriter };
		const writer = writers[wire](res, model);
		const prompt = JSON.stringify(body?.messages ?? body?.input ?? []);
		const text = response.type === 'text' ? response.text : (response.text ?? '');
		const usage =
			(response.type === 'text' && response.usage) ||
			{ input_tokens: estimate(prompt), output_tokens: estimate(text) };
		writer.start(usage);
		if (response.type === 'text' && response.waitFor) await response.waitFor;
		if (response.type === 'text' && response.compaction) writer.compaction?.(serverCompaction(wire, response.compaction, ++compactions));
		const chunks = response.type === 'text' ? response.chunks : undefined;
		for (const piece of split(text, chunks)) {
			if (response.type === 'text' && response.delayMs) await wait(response.delayMs);
			if (res.destroyed) return;
			writer.text(piece);
		}
		if (response.type === 'hang') return; // Left open until the client aborts or close().
		if (response.type === 'cut') return void res.end();
		if (response.type === 'stream_error') {
			writer.error(response.message ?? 'Mock failure during streaming');
			return void res.end();
		}
		if (response.type === 'tool_call') {
			const args =
				typeof response.arguments === 'string' ? response.arguments : JSON.stringify(response.arguments);
			writer.toolCall(response.id ?? 'call_mock_1', response.name, args);
			writer.finish('tool_calls', usage);
		} else if (response.type === 'text') writer.finish(response.finish || 'stop', usage, { clearedToolUses: response.clearedToolUses });
		else writer.finish('stop', usage);
		res.end();
	}

	/** @param {import('node:http').ServerResponse} res @param {number} status @param {unknown} json */
	const sendJson = (res, status, json) => {
		res.writeHead(status, { ...CORS, 'content-type': 'application/json' });
		res.end(JSON.stringify(json));
	};

	const server = createServer(async (req, res) => {
		const path = (req.url ?? '/').split('?')[0];
		if (req.method === 'OPTIONS') {
			const pna = req.headers['access-control-request-private-network'];
			res.writeHead(204, { ...CORS, ...(pna ? { 'access-control-allow-private-network': 'true' } : {}) });
			return void res.end();
		}
		let raw = '';
		for await (const chunk of req) raw += chunk;
		/** @type {any} */
		let body = raw;
		try {
			body = raw ? JSON.parse(raw) : null;
		} catch {
			// Kept as text so a test can assert what a broken client sent.
		}
		if (path === '/__mock/script' && req.method === 'POST') {
			queue.push(...(Array.isArray(body) ? body : [body]));
			return sendJson(res, 200, { queued: queue.length });
		}
		if (path === '/__mock/titles' && req.method === 'POST') {
			titles.push(...(Array.isArray(body) ? body : [body]));
			return sendJson(res, 200, { queued: titles.length });
		}
		if (path === '/__mock/requests') return sendJson(res, 200, requests);
		if (path === '/__mock/reset') {
			queue.length = 0;
			requests.length = 0;
			titles.length = 0;
			titleRequests.length = 0;
			compactions = 0;
			return sendJson(res, 200, { ok: true });
		}
		const titling = req.method === 'POST' && typeof raw === 'string' && raw.includes(TITLE_MARK);
		/** @type {RecordedRequest} */
		const record = {
			method: req.method ?? 'GET',
			path,
			headers: req.headers,
			body,
			abortedByClient: false
		};
		(titling ? titleRequests : requests).push(record);
		res.on('close', () => {
			if (!res.writableEnded) record.abortedByClient = true;
		});
		if (req.method === 'GET' && path.endsWith('/models')) {
			const data = ['mock-model', 'mock-large'].map((id) => ({ id, object: 'model', type: 'model' }));
			return sendJson(res, 200, { object: 'list', data, has_more: false });
		}
		if (req.method === 'POST' && path.endsWith('/responses/compact')) return sendJson(res, 200, compactReply(body, ++compactions));
		if (req.method === 'POST' && path.endsWith('/messages') && body?.compaction) return sendJson(res, 200, anthropicSummaryReply(body, ++compactions));
		/** @type {Wire | null} */
		const wire = path.endsWith('/messages') ? 'anthropic' : path.endsWith('/responses') ? 'responses' : path.endsWith('/chat/completions') ? 'openai' : null;
		if (req.method !== 'POST' || !wire) {
			return sendJson(res, 404, { error: { message: `No mock route for ${req.method} ${path}` } });
		}
		const next = titling
			? (titles.shift() ?? { type: 'http_error', status: 400, body: { error: { message: 'No title was scripted for this test.', type: 'invalid_request_error' } } })
			: (queue.shift() ?? { type: 'text', text: `Mock answer to: ${lastUserText(body)}` });
		await answer(res, next, body, wire).catch(() => res.destroy());
	});

	await new Promise((resolve) => server.listen(port, '127.0.0.1', () => resolve(undefined)));
	const address = server.address();
	const url = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : port}`;
	return {
		url,
		requests,
		titleRequests,
		script: (responses) => void queue.push(...responses),
		scriptTitles: (responses) => void titles.push(...responses),
		reset() {
			queue.length = 0;
			requests.length = 0;
			titles.length = 0;
			titleRequests.length = 0;
			compactions = 0;
		},
		close() {
			server.closeAllConnections();
			return new Promise((resolve) => server.close(() => resolve()));
		}
	};
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
	const flag = process.argv.indexOf('--port');
	const port = Number(flag >= 0 ? process.argv[flag + 1] : (process.env.PORT ?? 0));
	const mock = await startMockProvider({ port });
	console.log(`Mock provider listening on ${mock.url}`);
}
