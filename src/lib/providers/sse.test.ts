import { describe, expect, it } from 'vitest';
import { byteStream, collect, streamOfChunks } from './fixtures/read-fixture';
import { MAX_EVENT_CHARS, readSSE, type SSEMessage } from './sse';

const parse = (text: string, chunkSize = 1000): Promise<SSEMessage[]> =>
	collect(readSSE(byteStream(text, chunkSize)));

describe('readSSE', () => {
	it('ends lines with LF, CR or CRLF alike', async () => {
		const expected = [{ data: 'one' }, { event: 'ping', data: 'two' }];
		expect(await parse('data: one\n\nevent: ping\ndata: two\n\n')).toEqual(expected);
		expect(await parse('data: one\r\revent: ping\rdata: two\r\r')).toEqual(expected);
		expect(await parse('data: one\r\n\r\nevent: ping\r\ndata: two\r\n\r\n')).toEqual(expected);
	});

	it('joins multi-line data with newlines and strips only one leading space', async () => {
		expect(await parse('data: first\ndata:second\ndata:  third\n\n')).toEqual([
			{ data: 'first\nsecond\n third' }
		]);
	});

	it('ignores comments and unknown fields', async () => {
		const text = ': keep-alive\n\n: OPENROUTER PROCESSING\ndata: x\nfoo: bar\n\n';
		expect(await parse(text)).toEqual([{ data: 'x' }]);
	});

	it('drops an event left unterminated when the body ends', async () => {
		expect(await parse('data: complete\n\ndata: cut off')).toEqual([{ data: 'complete' }]);
	});

	it('gives the same events whatever byte the chunks are split at', async () => {
		const fixture = 'event: a\r\ndata: héllo\r\n\r\n: c\rdata: 1\rdata: 2\r\rdata: 👋 end\n\n';
		const whole = await parse(fixture);
		expect(whole).toEqual([
			{ event: 'a', data: 'héllo' },
			{ data: '1\n2' },
			{ data: '👋 end' }
		]);
		const bytes = new TextEncoder().encode(fixture);
		for (let cut = 1; cut < bytes.length; cut++) {
			const stream = streamOfChunks([bytes.slice(0, cut), bytes.slice(cut)]);
			expect(await collect(readSSE(stream)), `split at byte ${cut}`).toEqual(whole);
		}
		expect(await parse(fixture, 1)).toEqual(whole);
	});

	it('decodes a multibyte character split across chunks', async () => {
		const bytes = new TextEncoder().encode('data: 日本語 🎉\n\n');
		// Every chunk boundary falls inside a multibyte sequence.
		const chunks = [bytes.slice(0, 7), bytes.slice(7, 11), bytes.slice(11, 18), bytes.slice(18)];
		expect(await collect(readSSE(streamOfChunks(chunks)))).toEqual([{ data: '日本語 🎉' }]);
	});

	it('aborts a read that is waiting on a silent server with an AbortError', async () => {
		const controller = new AbortController();
		const silent = new ReadableStream<Uint8Array>({
			start(c) {
				c.enqueue(new TextEncoder().encode('data: first\n\n'));
			}
		});
		const seen: string[] = [];
		const run = (async () => {
			for await (const message of readSSE(silent, controller.signal)) {
				seen.push(message.data);
				controller.abort();
			}
		})();
		await expect(run).rejects.toMatchObject({ name: 'AbortError' });
		expect(seen).toEqual(['first']);
	});

	it('cancels the body when the consumer stops early', async () => {
		let cancelled = false;
		const body = new ReadableStream<Uint8Array>({
			start(c) {
				c.enqueue(new TextEncoder().encode('data: a\n\ndata: b\n\n'));
			},
			cancel() {
				cancelled = true;
			}
		});
		for await (const message of readSSE(body)) {
			if (message.data === 'a') break;
		}
		expect(cancelled).toBe(true);
	});
});

describe('readSSE size limit', () => {
	/** A body that keeps sending `piece` up to `total` characters, then `tail`, counting what was pulled. */
	function endless(piece: string, total: number, tail = '') {
		const bytes = new TextEncoder().encode(piece);
		let sent = 0;
		let cancelled = false;
		const body = new ReadableStream<Uint8Array>({
			pull(controller) {
				if (sent >= total) {
					if (tail) controller.enqueue(new TextEncoder().encode(tail));
					controller.close();
					return;
				}
				sent += piece.length;
				controller.enqueue(bytes);
			},
			cancel() {
				cancelled = true;
			}
		});
		return { body, pulled: () => sent, cancelled: () => cancelled };
	}

	it('ends a stream whose one line outgrows 16 MB with a clear error, and stops reading', async () => {
		const chunk = 'x'.repeat(64 * 1024);
		// 40 MB of one unterminated data line: without a limit all of it would be buffered.
		const source = endless(`data: ${chunk}`, 40 * 1024 * 1024);
		const events: SSEMessage[] = [];
		await expect(
			(async () => {
				for await (const event of readSSE(source.body)) events.push(event);
			})()
		).rejects.toMatchObject({
			name: 'ProviderError',
			kind: 'malformed',
			message: 'The provider sent a single event larger than 16 MB; the answer was stopped there.'
		});
		expect(MAX_EVENT_CHARS).toBe(16 * 1024 * 1024);
		expect(events).toEqual([]);
		expect(source.pulled()).toBeLessThan(17 * 1024 * 1024);
		expect(source.cancelled()).toBe(true);
	});

	it('counts every data line of one event, and delivers the events before it', async () => {
		const first = 'data: {"ok":true}\n\n';
		// Many short lines that never end the event grow it just the same.
		const source = endless('data: aaaaaaaaaaaaaaaaaaaa\n', 8 * 1024);
		const body = new ReadableStream<Uint8Array>({
			async start(controller) {
				controller.enqueue(new TextEncoder().encode(first));
				const reader = source.body.getReader();
				for (;;) {
					const { done, value } = await reader.read();
					if (done) break;
					controller.enqueue(value);
				}
				controller.close();
			}
		});
		const events: SSEMessage[] = [];
		await expect(
			(async () => {
				for await (const event of readSSE(body, undefined, { maxEventChars: 4096 })) events.push(event);
			})()
		).rejects.toMatchObject({ message: 'The provider sent a single event larger than 4 KB; the answer was stopped there.' });
		expect(events).toEqual([{ data: '{"ok":true}' }]);
	});

	it('accepts events up to the limit', async () => {
		const data = 'y'.repeat(4000);
		expect(await collect(readSSE(byteStream(`data: ${data}\n\n`, 1000), undefined, { maxEventChars: 4096 }))).toEqual([{ data }]);
	});
});
