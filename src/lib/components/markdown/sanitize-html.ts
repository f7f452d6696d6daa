// Last line of defence in the browser: DOMPurify with an allowlist of exactly the tags and
// attributes markdown-to-html emits, so a bug there still cannot yield script or a fetch.
// KaTeX's output (for math) adds its MathML, the spans and SVG of its drawing, and styles.

import createDOMPurify, { type Config, type DOMPurify } from 'dompurify';

/** What KaTeX writes, with `trust: false`: MathML, and SVG for stretchy glyphs and roots. */
const MATH_TAGS = [
	'math', 'semantics', 'annotation', 'mrow', 'mi', 'mn', 'mo', 'mtext', 'mspace', 'msub', 'msup',
	'msubsup', 'mfrac', 'msqrt', 'mroot', 'mover', 'munder', 'munderover', 'mpadded', 'mphantom',
	'mstyle', 'menclose', 'mtable', 'mtr', 'mtd', 'svg', 'path', 'line'
];
const MATH_ATTR = [
	'accent', 'accentunder', 'aria-hidden', 'columnalign', 'columnlines', 'columnspacing', 'd', 'depth',
	'display', 'displaystyle', 'encoding', 'fence', 'height', 'largeop', 'linebreak', 'linethickness',
	'lspace', 'mathbackground', 'mathcolor', 'mathsize', 'mathvariant', 'maxsize', 'minsize', 'notation',
	'preserveaspectratio', 'rowlines', 'rowspacing', 'rspace', 'scriptlevel', 'separator', 'stretchy',
	'stroke-width', 'style', 'viewbox', 'voffset', 'width', 'x1', 'x2', 'xmlns', 'y1', 'y2'
];

const CONFIG: Config = {
	ALLOWED_TAGS: [
		'a', 'blockquote', 'br', 'button', 'code', 'del', 'div', 'em', 'h1', 'h2', 'h3', 'h4',
		'h5', 'h6', 'hr', 'input', 'li', 'ol', 'p', 'pre', 'span', 'strong', 'table', 'tbody',
		'td', 'th', 'thead', 'tr', 'ul', ...MATH_TAGS
	],
	ALLOWED_ATTR: [
		'align', 'aria-live', 'checked', 'class', 'data-alt', 'data-src', 'disabled', 'href',
		'rel', 'start', 'target', 'title', 'type', ...MATH_ATTR
	],
	ALLOW_DATA_ATTR: false,
	// Every attribute not listed here must match ALLOWED_URI_REGEXP: that leaves href and
	// data-src, which may only carry http(s), mailto or an in-page anchor. (A style is
	// checked by the hook below.)
	ADD_URI_SAFE_ATTR: ['align', 'data-alt', 'rel', 'start', 'target', 'type', ...MATH_ATTR],
	ALLOWED_URI_REGEXP: /^(?:(?:https?|mailto):|#)/i,
	RETURN_TRUSTED_TYPE: false
};

// Under the app's Trusted Types policy, only HTML that DOMPurify vouches for reaches {@html}.
const TRUSTED: Config & { RETURN_TRUSTED_TYPE: true } = { ...CONFIG, RETURN_TRUSTED_TYPE: true };

/** Sanitized HTML: a TrustedHTML where the browser has Trusted Types, else a string; either goes straight to {@html}. */
export type SafeHtml = string | { toString(): string };

let purifier: DOMPurify | null = null;

/**
 * KaTeX's styles are lengths, colours and `calc()`: nothing else is kept, so no style can
 * fetch (`url()`, `image-set()`), pull in a stylesheet or hide behind a CSS escape.
 */
export function isSafeStyle(style: string): boolean {
	return /^[\w\s#.,%:;()+-]*$/.test(style) && !/\(/.test(style.replace(/\bcalc\(/g, ''));
}

function getPurifier(): DOMPurify {
	if (purifier) return purifier;
	// A private instance so these hooks never leak into other DOMPurify users in the app.
	purifier = createDOMPurify(window);
	purifier.addHook('uponSanitizeAttribute', (_node, data) => {
		if (data.attrName === 'style' && !isSafeStyle(data.attrValue)) data.keepAttr = false;
	});
	purifier.addHook('afterSanitizeAttributes', (node) => {
		if (node.tagName === 'A') {
			node.setAttribute('rel', 'noopener noreferrer');
			node.setAttribute('target', '_blank');
		}
		// Markdown only ever makes read-only task-list checkboxes.
		if (node.tagName === 'INPUT') {
			node.setAttribute('type', 'checkbox');
			node.setAttribute('disabled', '');
		}
		if (node.tagName === 'BUTTON') node.setAttribute('type', 'button');
	});
	return purifier;
}

/** Sanitizes in the browser; without a DOM (Node tests) it returns the input unchanged. */
export function sanitizeHtml(html: string): string {
	if (typeof window === 'undefined') return html;
	return getPurifier().sanitize(html, CONFIG) as string;
}

/** As sanitizeHtml, as a TrustedHTML where the browser has Trusted Types: what the page hands to {@html}. */
export function sanitizeTrustedHtml(html: string): SafeHtml {
	if (typeof window === 'undefined') return html;
	return getPurifier().sanitize(html, TRUSTED);
}
