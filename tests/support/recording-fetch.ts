// For sync's tests: a fetch that keeps a log of what was asked of the server.

/** A fetch that records each request's method, path and body size before passing it on. */
export function recordingFetch(log: { method: string; path: string; bytes: number; status?: number }[], inner: typeof fetch = fetch): typeof fetch {
	return async (input, init) => {
		const url = new URL(String(input));
		const entry: { method: string; path: string; bytes: number; status?: number } = {
			method: init?.method ?? 'GET',
			path: url.pathname + url.search,
			bytes: typeof init?.body === 'string' ? new TextEncoder().encode(init.body).byteLength : 0
		};
		log.push(entry);
		const response = await inner(input, init);
		entry.status = response.status;
		return response;
	};
}
