// The security headers `npm start` sends: the page's own Content-Security-Policy (the one
// SvelteKit wrote into index.html from svelte.config.js) plus what only a header can say.

/**
 * The policy of the first `<meta http-equiv="content-security-policy">` in `html`, or null.
 * @param {string} html
 */
export function readPagePolicy(html) {
	for (const [tag] of html.matchAll(/<meta\b[^>]*>/gi)) {
		if (!/http-equiv\s*=\s*["']?content-security-policy["'\s>]/i.test(tag)) continue;
		const content = /\bcontent\s*=\s*"([^"]*)"|\bcontent\s*=\s*'([^']*)'/i.exec(tag);
		const value = content?.[1] ?? content?.[2];
		if (value) return decodeEntities(value).trim();
	}
	return null;
}

/** @type {Record<string, string>} */
const ENTITIES = { quot: '"', '#39': "'", apos: "'", lt: '<', gt: '>', amp: '&' };

/** @param {string} text */
function decodeEntities(text) {
	return text.replace(/&(quot|#39|apos|lt|gt|amp);/g, (_, /** @type {string} */ name) => ENTITIES[name]);
}

/**
 * Headers for every response. `policy`: the page's CSP; the header repeats it and adds
 * frame-ancestors (ignored in a <meta> tag), so no other site can frame the app.
 * @param {string | null} policy
 * @returns {Record<string, string>}
 */
export function securityHeaders(policy) {
	/** @type {Record<string, string>} */
	const headers = {
		// A file is what its Content-Type says; nothing is guessed into a script.
		'X-Content-Type-Options': 'nosniff',
		// Session ids are in the app's addresses (/s/<id>): no request carries them elsewhere.
		'Referrer-Policy': 'no-referrer',
		// For browsers that predate frame-ancestors.
		'X-Frame-Options': 'SAMEORIGIN'
	};
	if (policy) {
		const directives = policy.split(';').map((d) => d.trim()).filter((d) => d && !/^frame-ancestors\b/i.test(d));
		headers['Content-Security-Policy'] = [...directives, "frame-ancestors 'self'"].join('; ');
	}
	return headers;
}
