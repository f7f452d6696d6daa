// Reads a 2xx answer by what it is, not by what was asked for: an event stream is streamed;
// a whole JSON body (an error such as llama.cpp's context overflow, or a proxy's
// non-streamed completion) is read and parsed; a web page is refused with its first words.

import { excerpt } from './frame-checks';
import { describeSize, MAX_EVENT_CHARS } from './sse';
import { ProviderError } from './types';

export type ProviderReply =
	| { type: 'events'; body: ReadableStream<Uint8Array> }
	| { type: 'json'; value: unknown };

function mediaType(header: string | null): string {
	return (header ?? '').split(';')[0].trim().toLowerCase();
}

const isJsonType = (type: string) => type === 'application/json' || type.endsWith('+json');

/**
 * Decides between streaming and reading whole. Only `text/event-stream` streams unseen;
 * anything else is judged by its first character, so a server that labels its stream
 * loosely (or not at all) still streams, and JSON under any label is read as JSON.
 */
export async function readReply(response: Response, maxChars = MAX_EVENT_CHARS): Promise<ProviderReply> {
	if (!response.body) throw new ProviderError('The provider answered without a body.', { kind: 'incomplete' });
	const type = mediaType(response.headers.get('content-type'));
	if (type === 'text/event-stream') return { type: 'events', body: response.body };
	const { first, body } = await sniff(response.body, maxChars);
	if (isJsonType(type) || first === '{' || first === '[') {
		return { type: 'json', value: parseJson(await readText(body, maxChars)) };
	}
	if (first === '<') {
		const page = (await readText(body, maxChars)).replace(/\s+/g, ' ').trim();
		throw new ProviderError(
			`The provider answered with a web page (${type || 'no content type'}) instead of an answer: ${excerpt(page, 200)}`,
			{ kind: 'malformed' }
		);
	}
	return { type: 'events', body };
}

function parseJson(text: string): unknown {
	try {
		return JSON.parse(text);
	} catch {
		throw new ProviderError(`The provider sent a JSON answer that is not valid JSON: ${excerpt(text.trim())}`, {
			kind: 'malformed'
		});
	}
}

/**
 * The first character that is not white space (or a byte-order mark), and a stream that
 * still yields every byte, the ones looked at included.
 */
async function sniff(
	source: ReadableStream<Uint8Array>,
	maxChars: number
): Promise<{ first: string; body: ReadableStream<Uint8Array> }> {
	const reader = source.getReader();
	const decoder = new TextDecoder();
	const seen: Uint8Array[] = [];
	let size = 0;
	let first = '';
	let ended = false;
	try {
		while (!first && !ended) {
			const next = await reader.read();
			if (next.done) ended = true;
			else {
				seen.push(next.value);
				size += next.value.length;
				first = decoder.decode(next.value, { stream: true }).replace(/^[\s\uFEFF]+/, '').charAt(0);
				if (!first && size > maxChars) throw tooLargeReply(maxChars);
			}
		}
	} catch (error) {
		void reader.cancel().catch(() => {});
		throw error;
	}
	const body = new ReadableStream<Uint8Array>({
		async pull(controller) {
			const chunk = seen.shift();
			if (chunk) return controller.enqueue(chunk);
			if (ended) return controller.close();
			const next = await reader.read();
			if (next.done) controller.close();
			else controller.enqueue(next.value);
		},
		cancel: (reason) => reader.cancel(reason)
	});
	return { first, body };
}

/** The whole body as text, refusing to hold more than `maxChars` bytes of it. */
async function readText(body: ReadableStream<Uint8Array>, maxChars: number): Promise<string> {
	const reader = body.getReader();
	const decoder = new TextDecoder();
	let size = 0;
	let text = '';
	for (;;) {
		const { done, value } = await reader.read();
		if (done) return text + decoder.decode();
		size += value.length;
		if (size > maxChars) {
			void reader.cancel().catch(() => {});
			throw tooLargeReply(maxChars);
		}
		text += decoder.decode(value, { stream: true });
	}
}

function tooLargeReply(limit: number): ProviderError {
	return new ProviderError(`The provider's answer is larger than ${describeSize(limit)}; it was not read.`, {
		kind: 'malformed'
	});
}
