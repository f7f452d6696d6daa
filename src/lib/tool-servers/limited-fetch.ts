// The fetch the tool-server client uses: every response body is cut off past a bound, so a
// server that answers without end (or with a huge result) fails that request instead of
// filling the worker's memory.

/** Bytes one response of a tool server may carry. */
export const MAX_RESPONSE_BYTES = 16 * 1024 * 1024;

const NULL_BODY = new Set([101, 204, 205, 304]);

/** A response cut for being past the bound: its request failed, its connection is fine. */
export class ResponseTooLargeError extends RangeError {}

/** Whether `response` has a body that may be read (and replaced by a wrapped one). */
export function hasBody(response: Response): response is Response & { body: ReadableStream<Uint8Array> } {
	return response.body !== null && !NULL_BODY.has(response.status);
}

/** `response` with `body` in place of its own. */
export function withBody(response: Response, body: ReadableStream<Uint8Array>): Response {
	return new Response(body, { status: response.status, statusText: response.statusText, headers: response.headers });
}

export function limitedFetch(fetchImpl: typeof fetch, maxBytes = MAX_RESPONSE_BYTES): typeof fetch {
	return async (input, init) => {
		const response = await fetchImpl(input, init);
		if (!hasBody(response)) return response;
		let seen = 0;
		const body = response.body.pipeThrough(
			new TransformStream<Uint8Array, Uint8Array>({
				transform(chunk, controller) {
					seen += chunk.byteLength;
					if (seen > maxBytes) controller.error(new ResponseTooLargeError(`The tool server sent more than ${Math.round(maxBytes / 1024 / 1024)} MB in one answer; the rest was not read.`));
					else controller.enqueue(chunk);
				}
			})
		);
		return withBody(response, body);
	};
}
