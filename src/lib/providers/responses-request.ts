// Builds the JSON body of an OpenAI Responses request from a provider-neutral one. Stateless:
// `store: false` and no `previous_response_id`, so the local transcript stays the truth and
// the whole input goes out each time; the provider's own compaction items go back unchanged.
import { canReplay } from './native-family';
import { fileText, imageDataUrl, pdfDataUrl, type ChatMessage, type ChatRequest, type ToolSchema } from './types';

export type ResponsesItem = Record<string, unknown>;

/** The input items of one message (the system prompt is sent as `instructions`). */
function toItems(message: ChatMessage, model: string): ResponsesItem[] {
	if (message.native && canReplay(message.native, 'openai-responses', model)) return message.native.items as ResponsesItem[];
	if (message.role === 'tool') {
		// A result with images is a list: its text, then each image.
		const output = message.images?.length
			? [{ type: 'input_text', text: message.content }, ...message.images.map((image) => ({ type: 'input_image', image_url: imageDataUrl(image) }))]
			: message.content;
		return [{ type: 'function_call_output', call_id: message.tool_call_id ?? '', output }];
	}
	if (message.role === 'assistant') {
		const items: ResponsesItem[] = message.content ? [{ role: 'assistant', content: message.content }] : [];
		for (const call of message.tool_calls ?? []) items.push({ type: 'function_call', call_id: call.id, name: call.name, arguments: call.arguments });
		return items;
	}
	if (message.images?.length || message.files?.length) {
		// Attachments make the message a list: its text, each file (a PDF as a file, others as text), then each image.
		const content = [
			...(message.content ? [{ type: 'input_text', text: message.content }] : []),
			...(message.files ?? []).map((file) => (file.pdf ? { type: 'input_file', filename: file.name, file_data: pdfDataUrl(file.pdf) } : { type: 'input_text', text: fileText(file) })),
			...(message.images ?? []).map((image) => ({ type: 'input_image', image_url: imageDataUrl(image) }))
		];
		return [{ role: 'user', content }];
	}
	return [{ role: 'user', content: message.content }];
}

/** The input items of a history: what the body's `input` and `/responses/compact` both take. */
export function toResponsesInput(messages: readonly ChatMessage[], model: string): { instructions: string; input: ResponsesItem[] } {
	const instructions = messages.filter((m) => m.role === 'system').map((m) => m.content).join('\n\n');
	const input = messages.filter((m) => m.role !== 'system').flatMap((m) => toItems(m, model));
	return { instructions, input };
}

// Tool schemas are plugin-written and need not meet strict mode's rules (every property required).
const toTool = (tool: ToolSchema) => ({ type: 'function', name: tool.name, description: tool.description, parameters: tool.parameters, strict: false });

/** The parts every Responses call shares: model, input, instructions and tools. */
export function responsesBase(request: Pick<ChatRequest, 'model' | 'messages' | 'tools'>): Record<string, unknown> {
	const { instructions, input } = toResponsesInput(request.messages, request.model);
	const body: Record<string, unknown> = { model: request.model, input };
	if (instructions) body.instructions = instructions;
	if (request.tools?.length) body.tools = request.tools.map(toTool);
	return body;
}

export function buildResponsesBody(request: ChatRequest): Record<string, unknown> {
	const body: Record<string, unknown> = { ...responsesBase(request), stream: true, store: false };
	if (request.max_tokens !== undefined) body.max_output_tokens = request.max_tokens;
	if (request.temperature !== undefined) body.temperature = request.temperature;
	if (request.top_p !== undefined) body.top_p = request.top_p;
	if (request.reasoning_effort !== undefined) body.reasoning = { effort: request.reasoning_effort };
	if (request.context_management) {
		body.context_management = [{ type: 'compaction', compact_threshold: Math.max(1, Math.floor(request.context_management.compactAt)) }];
	}
	return body;
}
