// Server-sent events over a fetch body: bytes → UTF-8 text (streaming, so a character split
// across chunks survives) → spec-compliant events via eventsource-parser.

import { createParser } from 'eventsource-parser';
import { abortError, throwIfAborted } from './abort';

export interface SSEMessage {
	event?: string;
	data: string;
}

/**
 * Yields each complete event in `body`. An event still unterminated when the body ends is
 * dropped, as the SSE spec requires; callers detect truncation by the missing terminator.
 * Aborting `signal` cancels the body and throws an AbortError, even while a read is pending.
 */
export async function* readSSE(
	body: ReadableStream<Uint8Array>,
	signal?: AbortSignal
): AsyncGenerator<SSEMessage> {
	throwIfAborted(signal);
	const reader = body.getReader();
	const decoder = new TextDecoder();
	const queue: SSEMessage[] = [];
	const parser = createParser({
		onEvent: ({ event, data }) => queue.push(event === undefined ? { data } : { event, data })
	});
	// Cancelling resolves a pending read() with done, so an abort is noticed even when the
	// server has gone quiet and the body never rejects by itself.
	const onAbort = () => void reader.cancel(abortError(signal)).catch(() => {});
	signal?.addEventListener('abort', onAbort, { once: true });
	let finished = false;
	let endsWithCR = false;
	const feed = (text: string) => {
		if (text === '') return;
		parser.feed(text);
		endsWithCR = text.endsWith('\r');
	};
	try {
		for (;;) {
			const { done, value } = await reader.read().catch((error: unknown) => {
				throw signal?.aborted ? abortError(signal) : error;
			});
			throwIfAborted(signal);
			if (done) break;
			feed(decoder.decode(value, { stream: true }));
			while (queue.length > 0) yield queue.shift() as SSEMessage;
		}
		finished = true;
		feed(decoder.decode());
		// The parser holds a final CR back in case an LF follows; at the end none will, and an
		// LF completes it as one CRLF line ending rather than adding a second one.
		if (endsWithCR) parser.feed('\n');
		while (queue.length > 0) yield queue.shift() as SSEMessage;
	} finally {
		signal?.removeEventListener('abort', onAbort);
		// A consumer that stops early (break, throw, [DONE]) must still free the connection.
		if (!finished) void reader.cancel().catch(() => {});
		else reader.releaseLock();
	}
}
