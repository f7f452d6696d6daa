// Which URLs a plugin may be loaded from, and the plugin id a URL gives.

const LOCAL_HOSTS = new Set(['localhost', '127.0.0.1', '[::1]']);

/**
 * Accepts https URLs, http URLs on this machine, and same-origin paths; returns the absolute
 * URL or throws an Error that says what is accepted.
 */
export function resolvePluginUrl(input: string, pageOrigin: string): string {
	const text = input.trim();
	if (!text) throw new Error('Enter the URL of a plugin module (an https URL, a localhost URL or a path on this site).');
	let url: URL;
	try {
		url = new URL(text, pageOrigin);
	} catch {
		throw new Error(`"${text}" is not a valid URL.`);
	}
	// The plugin id is read from the decoded file name; refuse here, with the reason, rather
	// than fail later with the browser's bare "URI malformed".
	if (!decodes(url.pathname)) {
		throw new Error(
			`"${text}" has a broken percent-encoding (a % that does not start a valid escape such as %20). ` +
				'Correct the URL, or write a literal % as %25.'
		);
	}
	const sameOrigin = url.origin === new URL(pageOrigin).origin;
	// Plain http only to this machine: a loopback name or address, never "127.something.example".
	const local = url.protocol === 'http:' && (LOCAL_HOSTS.has(url.hostname) || /^127(\.\d{1,3}){3}$/.test(url.hostname));
	if (url.protocol === 'https:' || local || sameOrigin) return url.href;
	throw new Error(
		`Plugins load only from https URLs, localhost URLs or paths on this site; "${url.protocol}//${url.host}" is none of these.`
	);
}

function decodes(text: string): boolean {
	try {
		decodeURIComponent(text);
		return true;
	} catch {
		return false;
	}
}

/** A readable id from the module's file name ("…/conventions.js" → "conventions"), unique among `taken`. */
export function pluginIdFromUrl(url: string, taken: ReadonlySet<string>): string {
	const raw = new URL(url).pathname.split('/').filter(Boolean).pop() ?? 'plugin';
	const file = decodes(raw) ? decodeURIComponent(raw) : raw;
	const base =
		file
			.replace(/\.(m?js|ts)$/i, '')
			.toLowerCase()
			.replace(/[^a-z0-9_-]+/g, '-')
			.replace(/^-+|-+$/g, '') || 'plugin';
	let id = base;
	for (let n = 2; taken.has(id); n++) id = `${base}-${n}`;
	return id;
}
