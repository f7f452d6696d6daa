// The security headers `npm start` sends: the page's own Content-Security-Policy (the one
// SvelteKit wrote into index.html from svelte.config.js), or for a plugin's frame the frame's
// own (static/plugin-frame.html), plus what only a header can say.

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
 * Headers for a response. `policy`: the Content-Security-Policy of the document being served
 * (the page's, for everything but a document with a policy of its own); the header repeats it
 * and adds frame-ancestors (ignored in a <meta> tag), so no other site can frame the app.
 * `sandbox`: sandbox flags the header adds (also ignored in a <meta> tag); the document then has
 * an opaque origin however it is opened.
 * @param {string | null} policy
 * @param {{ sandbox?: string }} [options]
 * @returns {Record<string, string>}
 */
export function securityHeaders(policy, { sandbox } = {}) {
	/** @type {Record<string, string>} */
	const headers = {
		// A file is what its Content-Type says; nothing is guessed into a script.
		'X-Content-Type-Options': 'nosniff',
		// Session ids are in the app's addresses (/s/<id>): no request carries them elsewhere.
		'Referrer-Policy': 'no-referrer',
		// For browsers that predate frame-ancestors.
		'X-Frame-Options': 'SAMEORIGIN'
	};
	if (policy || sandbox !== undefined) {
		const directives = (policy ?? '').split(';').map((d) => d.trim()).filter((d) => d && !/^(frame-ancestors|sandbox)\b/i.test(d));
		headers['Content-Security-Policy'] = [...directives, "frame-ancestors 'self'", ...(sandbox === undefined ? [] : [`sandbox ${sandbox}`.trim()])].join('; ');
	}
	return headers;
}
