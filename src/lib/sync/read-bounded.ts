// Reads a response from the sync server as JSON, stopping past a bound: a server that answers
// without end, or with a huge document, fails that request instead of filling memory.
import { badAnswer, tooLarge } from './sync-error';

export async function readBoundedJson(response: Response, maxBytes: number): Promise<unknown> {
	const declared = Number(response.headers.get('content-length'));
	if (Number.isFinite(declared) && declared > maxBytes) {
		await response.body?.cancel().catch(() => {});
		throw tooLarge(maxBytes);
	}
	const chunks: Uint8Array[] = [];
	let seen = 0;
	if (response.body) {
		const reader = response.body.getReader();
		for (;;) {
			const { done, value } = await reader.read();
			if (done) break;
			seen += value.byteLength;
			if (seen > maxBytes) {
				await reader.cancel().catch(() => {});
				throw tooLarge(maxBytes);
			}
			chunks.push(value);
		}
	}
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
