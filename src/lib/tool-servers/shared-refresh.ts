// A refresh token is spent once: a server that rotates them refuses it the second time, and the
// SDK refreshes once for every request the server turned away. Two requests that find the access
// token expired together (a call and the event stream, or a reconnect) would each spend the same
// refresh token, and the one that came second would end a sign-in that is fine. Here every
// refresh with the same token, at once or shortly after, shares the one answer the server gave.

/** How long an answer to a refresh is kept for a late request that read the same token. */
const KEEP_MS = 60_000;

export function shareRefreshes(fetchImpl: typeof fetch, keepMs = KEEP_MS): typeof fetch {
	const answers = new Map<string, Promise<Response>>();
	return (input, init) => {
		const token = refreshTokenOf(init);
		if (token === undefined) return fetchImpl(input, init);
		const key = `${String(input instanceof Request ? input.url : input)}\n${token}`;
		let answer = answers.get(key);
		if (!answer) {
			answer = fetchImpl(input, init);
			answers.set(key, answer);
			const forget = () => answers.get(key) === answer && answers.delete(key);
			// A refresh that could not reach the server spent nothing: the next one tries again.
			answer.then(() => setTimeout(forget, keepMs), forget);
		}
		return answer.then((response) => response.clone());
	};
}

/** The refresh token an OAuth token request spends, if it is a refresh. */
function refreshTokenOf(init: RequestInit | undefined): string | undefined {
	if (init?.method?.toUpperCase() !== 'POST' || !(init.body instanceof URLSearchParams)) return undefined;
	if (init.body.get('grant_type') !== 'refresh_token') return undefined;
	return init.body.get('refresh_token') ?? undefined;
}
