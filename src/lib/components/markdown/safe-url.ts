// Decides which URLs in model output may become live links or loadable images.
// An allowlist of schemes, checked with the same WHATWG parser the browser will use.

const LINK_SCHEMES = new Set(['http:', 'https:', 'mailto:']);
const IMAGE_SCHEMES = new Set(['http:', 'https:']);

const NAMED_ENTITIES: Record<string, string> = {
	amp: '&',
	lt: '<',
	gt: '>',
	quot: '"',
	apos: "'",
	colon: ':',
	tab: '\t',
	newline: '\n'
};

/** marked leaves entities in link destinations undecoded; CommonMark decodes them. */
function decodeEntities(value: string): string {
	return value.replace(/&(#x[0-9a-f]+|#[0-9]+|[a-z]+);/gi, (whole, body: string) => {
		if (body[0] === '#') {
			const hex = body[1] === 'x' || body[1] === 'X';
			const code = Number.parseInt(body.slice(hex ? 2 : 1), hex ? 16 : 10);
			return code > 0 && code <= 0x10ffff ? String.fromCodePoint(code) : whole;
		}
		return NAMED_ENTITIES[body.toLowerCase()] ?? whole;
	});
}

function parseAllowed(raw: string, schemes: Set<string>): string | null {
	const value = decodeEntities(raw).trim();
	if (value === '') return null;
	let url: URL;
	try {
		// No base URL: relative paths and protocol-relative URLs are refused, since in this
		// SPA they would point into the app's own origin.
		url = new URL(value);
	} catch {
		return null;
	}
	return schemes.has(url.protocol) ? url.href : null;
}

/** The href to emit for a link, or null when the link must be neutralised. */
export function safeLinkHref(raw: string): string | null {
	const value = decodeEntities(raw).trim();
	// In-page anchors are harmless; keep them verbatim (minus characters a URL cannot hold).
	if (value.startsWith('#')) return /^#[^\s"'<>`]*$/.test(value) ? value : null;
	return parseAllowed(raw, LINK_SCHEMES);
}

/** The URL an image may be fetched from after the user asks, or null. */
export function safeImageSrc(raw: string): string | null {
	return parseAllowed(raw, IMAGE_SCHEMES);
}

/** Host shown on an image placeholder so the user knows who they would be contacting. */
export function hostOf(url: string): string {
	try {
		return new URL(url).host;
	} catch {
		return '';
	}
}
