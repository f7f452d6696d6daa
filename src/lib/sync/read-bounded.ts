// Reads a response from the sync server as JSON, stopping past a bound: a server that answers
// without end, or with a huge document, fails that request instead of filling memory.
import { badAnswer, tooLarge } from './sync-error';

/** The body of `response` in chunks, failing with `tooBig()` as soon as it passes `maxBytes` (the rest is not read). */
export async function readBoundedChunks(response: Response, maxBytes: number, tooBig: () => Error): Promise<{ chunks: Uint8Array<ArrayBuffer>[]; bytes: number }> {
	const chunks: Uint8Array<ArrayBuffer>[] = [];
	let bytes = 0;
	if (!response.body) return { chunks, bytes };
	const reader = response.body.getReader();
	for (;;) {
		const { done, value } = await reader.read();
		if (done) return { chunks, bytes };
		bytes += value.byteLength;
		if (bytes > maxBytes) {
			await reader.cancel().catch(() => {});
			throw tooBig();
		}
		chunks.push(value);
	}
}

export async function readBoundedJson(response: Response, maxBytes: number): Promise<unknown> {
	const declared = Number(response.headers.get('content-length'));
	if (Number.isFinite(declared) && declared > maxBytes) {
		await response.body?.cancel().catch(() => {});
		throw tooLarge(maxBytes);
	}
	const { chunks, bytes: seen } = await readBoundedChunks(response, maxBytes, () => tooLarge(maxBytes));
	const bytes = new Uint8Array(seen);
	let at = 0;
	for (const chunk of chunks) {
		bytes.set(chunk, at);
		at += chunk.byteLength;
	}
	try {
		return JSON.parse(new TextDecoder('utf-8', { fatal: true }).decode(bytes));
	} catch {
		throw badAnswer('not JSON');
	}
}
