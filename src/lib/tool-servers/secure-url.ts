// Where a tool server's requests and sign-ins may go: https, or plain http only to this computer,
// where nothing crosses a network. The address the user typed, the one stored, and every
// address a server or its authorization server names are held to it.

/** This computer's names: plain http to them never leaves it. */
const LOOPBACK = new Set(['localhost', '127.0.0.1', '[::1]']);

/** Characters of an address said in a message. */
const MAX_SAID = 200;

/** An address refused for being plain http to another computer (or no web address at all). */
export class InsecureAddressError extends Error {
	constructor(url: URL | string, what: string) {
		// Said without a user name, password or query, which may carry secrets.
		const href = url instanceof URL && url.origin !== 'null' ? `${url.origin}${url.pathname}` : String(url);
		const said = href.length > MAX_SAID ? `${href.slice(0, MAX_SAID)}…` : href;
		super(`${what} (${said}) is refused: only https is used, or plain http to this computer (localhost, 127.0.0.1 or [::1]).`);
		this.name = 'InsecureAddressError';
	}
}

/** Whether `url` may be used: https, or http to this computer. */
export function isSecureUrl(url: URL): boolean {
	return url.protocol === 'https:' || (url.protocol === 'http:' && LOOPBACK.has(url.hostname));
}

/** `value` as a URL, if it may be used; throws InsecureAddressError (naming it as `what`) if not. */
export function requireSecureUrl(value: URL | string, what: string): URL {
	let url: URL;
	try {
		url = new URL(value);
	} catch {
		throw new InsecureAddressError(value, what);
	}
	if (!isSecureUrl(url)) throw new InsecureAddressError(url, what);
	return url;
}

/** A fetch that refuses, before sending anything, a request to an address that may not be used. */
export function secureFetch(fetchImpl: typeof fetch): typeof fetch {
	return (input, init) => {
		try {
			requireSecureUrl(input instanceof Request ? input.url : input, 'An address the tool server or its authorization server gave');
		} catch (error) {
			return Promise.reject(error);
		}
		return fetchImpl(input, init);
	};
}
