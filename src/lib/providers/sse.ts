// Server-sent events over a fetch body: bytes → UTF-8 text (streaming, so a character split
// across chunks survives) → spec-compliant events via eventsource-parser.

import { createParser } from 'eventsource-parser';
import { abortError, throwIfAborted } from './abort';
import { ProviderError } from './types';

export interface SSEMessage {
	event?: string;
	data: string;
}

/**
 * The most one event (or one line of it) may hold, in characters. Real events are a few
 * kilobytes; a server that never ends a line would otherwise grow the buffer until the tab dies.
 */
export const MAX_EVENT_CHARS = 16 * 1024 * 1024;

/** "16 MB", "4 KB": a limit as a person reads it. */
export function describeSize(chars: number): string {
	const mb = chars / (1024 * 1024);
	return mb >= 1 ? `${Math.round(mb * 10) / 10} MB` : `${Math.max(1, Math.round(chars / 1024))} KB`;
}

export function tooLarge(limit: number): ProviderError {
	return new ProviderError(
		`The provider sent a single event larger than ${describeSize(limit)}; the answer was stopped there.`,
		{ kind: 'malformed' }
	);
}

/**
 * Yields each complete event in `body`. An event still unterminated when the body ends is
 * dropped, as the SSE spec requires; callers detect truncation by the missing terminator.
 * Aborting `signal` cancels the body and throws an AbortError, even while a read is pending.
 * An event or line over `maxEventChars` ends the stream with a ProviderError.
 */
export async function* readSSE(
	body: ReadableStream<Uint8Array>,
	signal?: AbortSignal,
	{ maxEventChars = MAX_EVENT_CHARS }: { maxEventChars?: number } = {}
): AsyncGenerator<SSEMessage> {
	throwIfAborted(signal);
	const reader = body.getReader();
	const decoder = new TextDecoder();
	const queue: SSEMessage[] = [];
	let oversized = false;
	const parser = createParser({
		// The parser bounds what it buffers (a partial line plus the event's data so far) ...
		maxBufferSize: maxEventChars,
		onError: (error) => {
			if (error.type === 'max-buffer-size-exceeded') oversized = true;
		},
		onEvent: ({ event, data }) => {
			// ... and an event that arrived whole within one chunk is measured here.
			if (data.length > maxEventChars) oversized = true;
			if (!oversized) queue.push(event === undefined ? { data } : { event, data });
		}
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
			// The events before the oversized one were good and are delivered first.
			if (oversized) throw tooLarge(maxEventChars);
		}
		finished = true;
		feed(decoder.decode());
		// The parser holds a final CR back in case an LF follows; at the end none will, and an
		// LF completes it as one CRLF line ending rather than adding a second one.
		if (endsWithCR && !oversized) parser.feed('\n');
		while (queue.length > 0) yield queue.shift() as SSEMessage;
		if (oversized) throw tooLarge(maxEventChars);
	} finally {
		signal?.removeEventListener('abort', onAbort);
		// A consumer that stops early (break, throw, [DONE]) must still free the connection.
		if (!finished) void reader.cancel().catch(() => {});
		else reader.releaseLock();
	}
}
