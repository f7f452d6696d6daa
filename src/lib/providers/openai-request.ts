// Builds the JSON body of an OpenAI Chat Completions request from a provider-neutral one.

import { fileText, imageDataUrl, pdfDataUrl, withFileTexts, type ChatMessage, type ChatRequest, type ToolSchema } from './types';

type ContentPart = { type: 'text'; text: string } | { type: 'image_url'; image_url: { url: string } } | { type: 'file'; file: { filename: string; file_data: string } };

type OpenAIMessage =
	| { role: 'system' | 'user'; content: string | ContentPart[] }
	| {
			role: 'assistant';
			content: string | null;
			tool_calls?: {
				id: string;
				type: 'function';
				function: { name: string; arguments: string };
			}[];
	  }
	| { role: 'tool'; tool_call_id: string; content: string };

function toOpenAIMessage(message: ChatMessage, readsPdf: boolean): OpenAIMessage {
	if (message.role === 'tool') {
		return { role: 'tool', tool_call_id: message.tool_call_id ?? '', content: message.content };
	}
	if (message.role === 'assistant' && message.tool_calls?.length) {
		return {
			role: 'assistant',
			// OpenAI wants null rather than "" beside tool calls; some servers reject "".
			content: message.content === '' ? null : message.content,
			tool_calls: message.tool_calls.map((call) => ({
				id: call.id,
				type: 'function',
				function: { name: call.name, arguments: call.arguments }
			}))
		};
	}
	if (message.role === 'user' && (message.images?.length || message.files?.length)) return { role: 'user', content: userParts(message, readsPdf) };
	return { role: message.role, content: message.content };
}

/**
 * A user message with attachments: its text, each file as a text part (a PDF as a `file` part
 * where the server reads PDFs), then each image as a data: URL.
 */
function userParts(message: ChatMessage, readsPdf: boolean): ContentPart[] {
	return [
		...(message.content ? [{ type: 'text' as const, text: message.content }] : []),
		...(message.files ?? []).map((file): ContentPart => (readsPdf && file.pdf ? { type: 'file', file: { filename: file.name, file_data: pdfDataUrl(file.pdf) } } : { type: 'text', text: fileText(file) })),
		...(message.images ?? []).map((image): ContentPart => ({ type: 'image_url', image_url: { url: imageDataUrl(image) } }))
	];
}

/**
 * The messages on the wire. A tool message takes text only: the images of a run of tool results
 * follow it in one user message, each after a line naming the call it came from.
 */
function toOpenAIMessages(messages: readonly ChatMessage[], readsPdf: boolean): OpenAIMessage[] {
	const out: OpenAIMessage[] = [];
	let images: ContentPart[] = [];
	const flush = () => {
		if (images.length) out.push({ role: 'user', content: [{ type: 'text', text: 'The images the tool results above returned:' }, ...images] });
		images = [];
	};
	for (const message of messages) {
		if (message.role !== 'tool') flush();
		out.push(toOpenAIMessage(message, readsPdf));
		if (message.role === 'tool' && message.images?.length) {
			images.push({ type: 'text', text: `From tool call ${message.tool_call_id ?? ''}:` }, ...message.images.map((image): ContentPart => ({ type: 'image_url', image_url: { url: imageDataUrl(image) } })));
		}
	}
	flush();
	return out;
}

/** The messages without their images, for a model that reads text only: files go into the text. */
export function withoutImages(messages: readonly ChatMessage[]): ChatMessage[] {
	return messages.map((message) => {
		if (!message.images && !message.files) return message;
		const copy = { ...message, content: withFileTexts(message) };
		delete copy.images;
		delete copy.files;
		return copy;
	});
}

function toOpenAITool(tool: ToolSchema) {
	return {
		type: 'function' as const,
		function: { name: tool.name, description: tool.description, parameters: tool.parameters }
	};
}

/**
 * `useMaxCompletionTokens`: OpenAI's own API rejects `max_tokens` on reasoning models,
 * while local servers (llama.cpp, older vLLM) only know `max_tokens`. `readsPdf`: OpenAI's own
 * API reads a PDF sent as a `file` part; other servers get its text.
 */
export function buildOpenAIBody(
	request: ChatRequest,
	useMaxCompletionTokens = false,
	readsPdf = false
): Record<string, unknown> {
	const body: Record<string, unknown> = {
		model: request.model,
		messages: toOpenAIMessages(request.messages, readsPdf),
		stream: true,
		stream_options: { include_usage: true }
	};
	if (request.tools?.length) body.tools = request.tools.map(toOpenAITool);
	if (request.max_tokens !== undefined) {
		body[useMaxCompletionTokens ? 'max_completion_tokens' : 'max_tokens'] = request.max_tokens;
	}
	if (request.temperature !== undefined) body.temperature = request.temperature;
	if (request.top_p !== undefined) body.top_p = request.top_p;
	if (request.reasoning_effort !== undefined) body.reasoning_effort = request.reasoning_effort;
	return body;
}
