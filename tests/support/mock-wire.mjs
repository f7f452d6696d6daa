// SSE encoders for the mock provider: each writes one answer in a real wire protocol
// (OpenAI Chat Completions chunks, Anthropic Messages events) onto a Node response.

/** @typedef {import('node:http').ServerResponse} ServerResponse */
/** @typedef {{ input_tokens: number, output_tokens: number }} Usage */
/**
 * Neutral names, written in each wire's own words ('length' → Anthropic 'max_tokens'); any other
 * string (e.g. 'content_filter', 'refusal') is written as it is.
 * @typedef {'stop' | 'tool_calls' | 'length' | 'context_window_exceeded' | string} FinishReason
 */

/**
 * What the server did to the request's context on its own (Anthropic's context editing).
 * @typedef {{ clearedToolUses?: number }} Applied
 */

/**
 * @typedef {object} WireWriter
 * @property {(usage: Usage) => void} start
 * @property {(text: string) => void} text
 * @property {(id: string, name: string, args: string) => void} toolCall
 * @property {(reason: FinishReason, usage: Usage, applied?: Applied) => void} finish
 * @property {(message: string) => void} error
 * @property {(item: Record<string, unknown>) => void} [compaction] A compaction the server made
 *   on its own, in the wire's shape (wires without one have no such method).
 */

/**
 * Splits a JSON text into three fragments, as real servers stream tool arguments.
 * @param {string} text
 */
function fragments(text) {
	const third = Math.ceil(text.length / 3) || 1;
	const parts = [];
	for (let i = 0; i < text.length; i += third) parts.push(text.slice(i, i + third));
	return parts.length ? parts : [''];
}

/** @param {ServerResponse} res @param {string} model @returns {WireWriter} */
export function openAIWriter(res, model) {
	const base = { id: 'chatcmpl-mock', object: 'chat.completion.chunk', created: 1700000000, model };
	/** @param {Record<string, unknown>} fields */
	const send = (fields) => res.write(`data: ${JSON.stringify({ ...base, ...fields })}\n\n`);
	/** @param {Record<string, unknown>} delta @param {string | null} [finish] */
	const choice = (delta, finish = null) =>
		send({ choices: [{ index: 0, delta, logprobs: null, finish_reason: finish }] });
	return {
		start: () => choice({ role: 'assistant', content: '' }),
		text: (text) => choice({ content: text }),
		toolCall(id, name, args) {
			choice({
				tool_calls: [{ index: 0, id, type: 'function', function: { name, arguments: '' } }]
			});
			for (const part of fragments(args)) {
				choice({ tool_calls: [{ index: 0, function: { arguments: part } }] });
			}
		},
		finish(reason, usage) {
			choice({}, reason);
			const { input_tokens: prompt, output_tokens: completion } = usage;
			send({
				choices: [],
				usage: { prompt_tokens: prompt, completion_tokens: completion, total_tokens: prompt + completion }
			});
			res.write('data: [DONE]\n\n');
		},
		error: (message) =>
			res.write(`data: ${JSON.stringify({ error: { message, type: 'server_error', code: null } })}\n\n`)
	};
}

/** @param {ServerResponse} res @param {string} model @returns {WireWriter} */
export function anthropicWriter(res, model) {
	/** @param {string} type @param {Record<string, unknown>} fields */
	const send = (type, fields) =>
		res.write(`event: ${type}\ndata: ${JSON.stringify({ type, ...fields })}\n\n`);
	let index = -1;
	let textOpen = false;
	const closeText = () => {
		if (textOpen) send('content_block_stop', { index });
		textOpen = false;
	};
	return {
		start(usage) {
			const message = { id: 'msg_mock', type: 'message', role: 'assistant', model, content: [] };
			const start = { input_tokens: usage.input_tokens, output_tokens: 1 };
			send('message_start', { message: { ...message, stop_reason: null, usage: start } });
			send('ping', {});
		},
		text(text) {
			if (!textOpen) {
				send('content_block_start', { index: ++index, content_block: { type: 'text', text: '' } });
			}
			textOpen = true;
			send('content_block_delta', { index, delta: { type: 'text_delta', text } });
		},
		toolCall(id, name, args) {
			closeText();
			const block = { type: 'tool_use', id, name, input: {} };
			send('content_block_start', { index: ++index, content_block: block });
			for (const part of fragments(args)) {
				send('content_block_delta', { index, delta: { type: 'input_json_delta', partial_json: part } });
			}
			send('content_block_stop', { index });
		},
		compaction(block) {
			closeText();
			// Streamed as documented: a start, one delta carrying the whole summary, a stop.
			const { content, encrypted_content, ...rest } = block;
			send('content_block_start', { index: ++index, content_block: { ...rest, content: null } });
			const delta = { type: 'compaction_delta', content, ...(encrypted_content === undefined ? {} : { encrypted_content }) };
			send('content_block_delta', { index, delta });
			send('content_block_stop', { index });
		},
		finish(reason, usage, applied = {}) {
			closeText();
			/** @type {Record<string, string>} */
			const wire = { stop: 'end_turn', tool_calls: 'tool_use', length: 'max_tokens', context_window_exceeded: 'model_context_window_exceeded' };
			const stop_reason = wire[reason] ?? reason;
			const cleared = applied.clearedToolUses ?? 0;
			const edits = cleared > 0 ? [{ type: 'clear_tool_uses_20250919', cleared_tool_uses: cleared, cleared_input_tokens: cleared * 100 }] : [];
			send('message_delta', {
				delta: { stop_reason, stop_sequence: null },
				usage: { output_tokens: usage.output_tokens },
				...(edits.length ? { context_management: { applied_edits: edits } } : {})
			});
			send('message_stop', {});
		},
		error: (message) => send('error', { error: { type: 'overloaded_error', message } })
	};
}
