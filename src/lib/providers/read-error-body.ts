// Reads the body of a non-2xx answer, which is only ever looked at for its error message: the
// first bytes are enough to classify it, and a proxy or a broken server can send an error page
// of any size, so the rest is never read.

/**
 * The most of an error body that is read. Real error objects (OpenAI, Anthropic, llama.cpp's
 * context overflow, a proxy's HTML page) are a few hundred bytes to a few kilobytes.
 */
export const MAX_ERROR_BODY_BYTES = 64 * 1024;

/** Up to `maxBytes` of the body as text; the remainder is cancelled unread. Never throws. */
export async function readErrorBody(response: Response, maxBytes = MAX_ERROR_BODY_BYTES): Promise<string> {
	if (!response.body) return '';
	const reader = response.body.getReader();
	const decoder = new TextDecoder();
	let text = '';
	let size = 0;
	try {
		while (size < maxBytes) {
			const { done, value } = await reader.read();
			if (done) return text + decoder.decode();
			const room = maxBytes - size;
			const part = value.length > room ? value.subarray(0, room) : value;
			size += part.length;
			text += decoder.decode(part, { stream: true });
		}
		// A character cut at the limit stays in the decoder, unshown.
		void reader.cancel().catch(() => {});
		return text;
	} catch {
		void reader.cancel().catch(() => {});
		return text;
	}
}
