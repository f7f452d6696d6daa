// Fetches a plugin's code and says plainly why when it cannot: 404, not JavaScript, or a
// network/CORS failure.
export class PluginLoadError extends Error {
	constructor(message: string) {
		super(message);
		this.name = 'PluginLoadError';
	}
}

const JS_TYPES = /javascript|ecmascript|text\/plain|application\/octet-stream/i;

export async function fetchPluginSource(
	url: string,
	fetchImpl: typeof fetch = fetch
): Promise<string> {
	let response: Response;
	try {
		response = await fetchImpl(url, { cache: 'no-cache', credentials: 'omit' });
	} catch {
		throw new PluginLoadError(
			'Could not fetch the plugin: the network is unreachable, or the server does not allow ' +
				'cross-origin requests (it must send Access-Control-Allow-Origin).'
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
	return response.text();
}

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
