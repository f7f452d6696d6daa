// The fetch of a Streamable HTTP connection, knowing which JSON-RPC request each POST carries,
// so that a request's answer ends with the request. The SDK reads an answer's event stream
// until the server ends it, even after the call was stopped or timed out, and a stream cut for
// being too big fails no request (the call would wait for its time limit). Here a request the
// client cancels (notifications/cancelled) has its answer's connection closed, and a request
// whose answer was cut fails at once with why.
import { hasBody, ResponseTooLargeError, withBody } from './limited-fetch';

export type RequestId = string | number;

/**
 * `fail(id, reason)`: the answer to request `id` was cut (see limited-fetch.ts) before it was
 * complete; the caller fails that request with `reason`.
 */
export function requestScopedFetch(fetchImpl: typeof fetch, fail: (id: RequestId, reason: string) => void): typeof fetch {
	const open = new Map<RequestId, AbortController>();
	return async (input, init) => {
		const message = readMessage(init?.body);
		if (message?.method === 'notifications/cancelled') open.get(message.cancels as RequestId)?.abort();
		const id = message?.method === undefined ? undefined : message.id;
		if (id === undefined) return fetchImpl(input, init);

		const controller = new AbortController();
		const outer = init?.signal;
		const abort = () => controller.abort(outer?.reason);
		if (outer?.aborted) abort();
		outer?.addEventListener('abort', abort, { once: true });
		open.set(id, controller);
		const forget = () => {
			outer?.removeEventListener('abort', abort);
			if (open.get(id) === controller) open.delete(id);
		};
		let response: Response;
		try {
			response = await fetchImpl(input, { ...init, signal: controller.signal });
		} catch (error) {
			forget();
			throw error;
		}
		if (!hasBody(response)) {
			forget();
			return response;
		}
		const reader = response.body.getReader();
		const body = new ReadableStream<Uint8Array>({
			async pull(stream) {
				try {
					const { done, value } = await reader.read();
					if (!done) return stream.enqueue(value);
					forget();
					stream.close();
				} catch (error) {
					forget();
					if (error instanceof ResponseTooLargeError) fail(id, error.message);
					stream.error(error);
				}
			},
			cancel(reason) {
				forget();
				return reader.cancel(reason);
			}
		});
		return withBody(response, body);
	};
}

/** The JSON-RPC message a POST carries (the SDK sends one, as a JSON string), if it is one. */
function readMessage(body: unknown): { method?: string; id?: RequestId; cancels?: unknown } | null {
	if (typeof body !== 'string') return null;
	try {
		const message: unknown = JSON.parse(body);
		if (typeof message !== 'object' || message === null || Array.isArray(message)) return null;
		const { method, id, params } = message as Record<string, unknown>;
		return {
			method: typeof method === 'string' ? method : undefined,
			id: typeof id === 'string' || typeof id === 'number' ? id : undefined,
			cancels: typeof params === 'object' && params !== null ? (params as Record<string, unknown>).requestId : undefined
		};
	} catch {
		return null;
	}
}
