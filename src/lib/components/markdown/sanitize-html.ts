// Last line of defence in the browser: DOMPurify with an allowlist of exactly the tags and
// attributes markdown-to-html emits, so a bug there still cannot yield script or a fetch.

import createDOMPurify, { type Config, type DOMPurify } from 'dompurify';

const CONFIG: Config = {
	ALLOWED_TAGS: [
		'a', 'blockquote', 'br', 'button', 'code', 'del', 'div', 'em', 'h1', 'h2', 'h3', 'h4',
		'h5', 'h6', 'hr', 'input', 'li', 'ol', 'p', 'pre', 'span', 'strong', 'table', 'tbody',
		'td', 'th', 'thead', 'tr', 'ul'
	],
	ALLOWED_ATTR: [
		'align', 'aria-live', 'checked', 'class', 'data-alt', 'data-src', 'disabled', 'href',
		'rel', 'start', 'target', 'title', 'type'
	],
	ALLOW_DATA_ATTR: false,
	// Every attribute not listed here must match ALLOWED_URI_REGEXP: that leaves href and
	// data-src, which may only carry http(s), mailto or an in-page anchor.
	ADD_URI_SAFE_ATTR: ['align', 'data-alt', 'rel', 'start', 'target', 'type'],
	ALLOWED_URI_REGEXP: /^(?:(?:https?|mailto):|#)/i,
	RETURN_TRUSTED_TYPE: false
};

// Under the app's Trusted Types policy, only HTML that DOMPurify vouches for reaches {@html}.
const TRUSTED: Config & { RETURN_TRUSTED_TYPE: true } = { ...CONFIG, RETURN_TRUSTED_TYPE: true };

/** Sanitized HTML: a TrustedHTML where the browser has Trusted Types, else a string; either goes straight to {@html}. */
export type SafeHtml = string | { toString(): string };

let purifier: DOMPurify | null = null;

function getPurifier(): DOMPurify {
	if (purifier) return purifier;
	// A private instance so these hooks never leak into other DOMPurify users in the app.
	purifier = createDOMPurify(window);
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
