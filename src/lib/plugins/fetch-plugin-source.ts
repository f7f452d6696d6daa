// Fetches a plugin's code and says plainly why when it cannot: 404, not JavaScript, a
// network/CORS failure, or a server that never answers.
export class PluginLoadError extends Error {
	/** True when the server could not be reached at all, so a cached copy may stand in. */
	readonly unreachable: boolean;

	constructor(message: string, options: { unreachable?: boolean } = {}) {
		super(message);
		this.name = 'PluginLoadError';
		this.unreachable = options.unreachable ?? false;
	}
}

const JS_TYPES = /javascript|ecmascript|text\/plain|application\/octet-stream/i;

export const DEFAULT_FETCH_TIMEOUT_MS = 15_000;

export interface FetchPluginOptions {
	fetchImpl?: typeof fetch;
	/** Covers the whole download, body included, so a stalled server cannot leave "Loading…" forever. Default 15 s. */
	timeoutMs?: number;
}

export async function fetchPluginSource(url: string, options: FetchPluginOptions = {}): Promise<string> {
	const timeoutMs = options.timeoutMs && options.timeoutMs > 0 ? options.timeoutMs : DEFAULT_FETCH_TIMEOUT_MS;
	const abort = new AbortController();
	let timer: ReturnType<typeof setTimeout> | undefined;
	// setTimeout (not AbortSignal.timeout) so fake timers drive it; the race does not rely on
	// fetchImpl honouring the signal.
	const timedOut = new Promise<never>((_, reject) => {
		timer = setTimeout(() => {
			abort.abort();
			reject(new PluginLoadError(`The plugin URL did not answer within ${timeoutMs / 1000} s.`, { unreachable: true }));
		}, timeoutMs);
	});
	try {
		return await Promise.race([download(url, options.fetchImpl ?? fetch, abort.signal), timedOut]);
	} finally {
		clearTimeout(timer);
	}
}

async function download(url: string, fetchImpl: typeof fetch, signal: AbortSignal): Promise<string> {
	let response: Response;
	try {
		response = await fetchImpl(url, { cache: 'no-cache', credentials: 'omit', signal });
	} catch {
		throw new PluginLoadError(
			'Could not fetch the plugin: the network is unreachable, or the server does not allow ' +
				'cross-origin requests (it must send Access-Control-Allow-Origin).',
			{ unreachable: true }
		);
	}
	if (!response.ok) {
		throw new PluginLoadError(
			`The plugin URL answered ${response.status}${response.statusText ? ` ${response.statusText}` : ''}.`
		);
	}
	const type = response.headers.get('content-type') ?? '';
	if (type && !JS_TYPES.test(type)) {
		throw new PluginLoadError(`The file at this URL is not JavaScript (it was served as ${type.split(';')[0]}).`);
	}
	return decodeSource(await response.arrayBuffer());
}

// A module script is UTF-8 whatever its server says. Decoding strictly and keeping a byte-order
// mark makes the text encode back to exactly the bytes served, so its sha256 (see sha256Hex)
// is the one `sha256sum plugin.js` prints, for the fetched code and its cached copy alike.
const UTF8 = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });

export function decodeSource(bytes: ArrayBuffer | Uint8Array): string {
	try {
		return UTF8.decode(bytes);
	} catch {
		throw new PluginLoadError('The plugin file is not valid UTF-8 text; save it as UTF-8.');
	}
}

/** The SHA-256 of `text` as UTF-8 bytes: for source from decodeSource, of the file as served. */
export async function sha256Hex(text: string): Promise<string> {
	const digest = await crypto.subtle.digest('SHA-256', new TextEncoder().encode(text));
	return [...new Uint8Array(digest)].map((b) => b.toString(16).padStart(2, '0')).join('');
}

export function normalizePin(pin: string | null | undefined): string | null {
	const clean = (pin ?? '').trim().toLowerCase().replace(/^sha256[-:]/, '');
	if (!clean) return null;
	if (!/^[0-9a-f]{64}$/.test(clean)) throw new Error('A sha256 pin is 64 hexadecimal characters.');
	return clean;
}
