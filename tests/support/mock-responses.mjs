// The OpenAI Responses protocol for the mock provider: an SSE writer for `POST …/responses`
// (text, function calls, a compaction item the server makes on its own, usage, completed or
// incomplete), and the answer of `POST …/responses/compact`.

/** @typedef {import('node:http').ServerResponse} ServerResponse */
/** @typedef {import('./mock-wire.mjs').Usage} Usage */
/** @typedef {import('./mock-wire.mjs').WireWriter} WireWriter */

/** @param {ServerResponse} res @param {string} model @returns {WireWriter} */
export function responsesWriter(res, model) {
	let sequence = 0;
	let index = -1;
	/** @type {string | null} */
	let textItem = null;
	let text = '';
	/** @type {unknown[]} */
	const output = [];
	/** @param {string} type @param {Record<string, unknown>} fields */
	const send = (type, fields) => res.write(`event: ${type}\ndata: ${JSON.stringify({ type, sequence_number: sequence++, ...fields })}\n\n`);
	const response = (/** @type {string} */ status, /** @type {Record<string, unknown>} */ extra = {}) => ({ id: 'resp_mock', object: 'response', model, status, output, ...extra });
	const closeText = () => {
		if (textItem === null) return;
		const item = { type: 'message', id: textItem, role: 'assistant', status: 'completed', content: [{ type: 'output_text', text, annotations: [] }] };
		send('response.output_text.done', { item_id: textItem, output_index: index, content_index: 0, text });
		send('response.output_item.done', { output_index: index, item });
		output.push(item);
		textItem = null;
	};
	return {
		start() {
			send('response.created', { response: response('in_progress') });
		},
		text(piece) {
			if (textItem === null) {
				textItem = `msg_mock_${index + 1}`;
				text = '';
				send('response.output_item.added', { output_index: ++index, item: { type: 'message', id: textItem, role: 'assistant', status: 'in_progress', content: [] } });
			}
			text += piece;
			send('response.output_text.delta', { item_id: textItem, output_index: index, content_index: 0, delta: piece });
		},
		toolCall(id, name, args) {
			closeText();
			const item = { type: 'function_call', id: `fc_mock_${index + 1}`, call_id: id, name, arguments: '', status: 'in_progress' };
			send('response.output_item.added', { output_index: ++index, item });
			for (let i = 0; i < args.length; i += 8) send('response.function_call_arguments.delta', { item_id: item.id, output_index: index, delta: args.slice(i, i + 8) });
			send('response.function_call_arguments.done', { item_id: item.id, output_index: index, arguments: args });
			const done = { ...item, arguments: args, status: 'completed' };
			send('response.output_item.done', { output_index: index, item: done });
			output.push(done);
		},
		/** @param {Record<string, unknown>} item */
		compaction(item) {
			closeText();
			send('response.output_item.added', { output_index: ++index, item });
			send('response.output_item.done', { output_index: index, item });
			output.push(item);
		},
		finish(reason, usage) {
			closeText();
			const counts = { input_tokens: usage.input_tokens, output_tokens: usage.output_tokens, total_tokens: usage.input_tokens + usage.output_tokens };
			if (reason === 'stop' || reason === 'tool_calls') send('response.completed', { response: response('completed', { usage: counts }) });
			else {
				const details = { reason: reason === 'length' ? 'max_output_tokens' : reason };
				send('response.incomplete', { response: response('incomplete', { usage: counts, incomplete_details: details }) });
			}
		},
		error: (message) => send('error', { code: 'server_error', message, param: null })
	};
}

/** Text of a Responses input item's content, whichever shape it has. @param {any} content */
export const itemText = (content) =>
	typeof content === 'string' ? content : Array.isArray(content) ? content.map((/** @type {any} */ part) => part.text ?? '').join('') : '';

/**
 * The answer of `/responses/compact`: the user messages of the input, then one compaction item
 * whose `encrypted_content` names the call (`enc_mock_1`, `enc_mock_2`, …).
 * @param {any} body @param {number} call
 */
export function compactReply(body, call) {
	/** @type {any[]} */
	const input = Array.isArray(body?.input) ? body.input : [];
	const users = input
		.filter((item) => item.role === 'user' && (item.type ?? 'message') === 'message')
		.map((item) => ({ type: 'message', role: 'user', content: [{ type: 'input_text', text: itemText(item.content) }] }));
	const compaction = { type: 'compaction', id: `cmp_mock_${call}`, encrypted_content: `enc_mock_${call}` };
	return { id: `resp_compact_${call}`, object: 'response.compaction', created_at: 1700000000, output: [...users, compaction], usage: { input_tokens: 120, output_tokens: 40, total_tokens: 160 } };
}

/**
 * Anthropic's answer to a request with `compaction: {type: "summarize"}`: one signed
 * compaction block and `stop_reason: "compaction"`.
 * @param {any} body @param {number} call
 */
export function anthropicSummaryReply(body, call) {
	const count = Array.isArray(body?.messages) ? body.messages.length : 0;
	const block = { type: 'compaction', content: `Mock summary ${call} of ${count} messages.`, signature: `sig_mock_${call}` };
	return {
		id: `msg_compact_${call}`,
		type: 'message',
		role: 'assistant',
		model: String(body?.model ?? 'mock-model'),
		content: [block],
		stop_reason: 'compaction',
		usage: { input_tokens: 0, output_tokens: 0, iterations: [{ type: 'compaction', input_tokens: 144, output_tokens: 40 }] }
	};
}
