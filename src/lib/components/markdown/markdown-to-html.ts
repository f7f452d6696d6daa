// Turns model Markdown into HTML with every unsafe construct defused at the source:
// raw HTML is shown as text, links are scheme-checked, images become click-to-load
// placeholders. Pure string work, so it runs (and is tested) without a DOM.

import { Marked, type Tokens } from 'marked';
import { COPY_LABEL } from './copy-label';
import { escapeHtml } from './escape-html';
import { highlightCode, MAX_HIGHLIGHT_CHARS } from './highlight-code';
import { markedLimits, resetMarkedLimits } from './marked-limits';
import { markedMath, resetMath } from './marked-math';
import { hostOf, safeImageSrc, safeLinkHref } from './safe-url';

/** Highlighting budget per document, so a pasted log of many blocks still renders fast. */
const MAX_HIGHLIGHT_CHARS_PER_DOCUMENT = 2 * MAX_HIGHLIGHT_CHARS;
let highlightBudget = MAX_HIGHLIGHT_CHARS_PER_DOCUMENT;

function titleAttr(title: string | null | undefined): string {
	return title ? ` title="${escapeHtml(title)}"` : '';
}

export { COPY_LABEL };

function renderCode({ text, lang }: Tokens.Code): string {
	const { html, language } = highlightCode(text, text.length <= highlightBudget ? lang : undefined);
	if (language) highlightBudget -= text.length;
	const langClass = language ? ` language-${language}` : '';
	const label = language ? `<span class="code-lang">${escapeHtml(language)}</span>` : '';
	// The button's text is its name; the polite region beside it announces the copy's result.
	return (
		`<div class="code-block"><div class="code-tools">${label}` +
		`<button type="button" class="copy-code">${COPY_LABEL}</button>` +
		'<span class="copy-status" aria-live="polite"></span></div>' +
		`<pre><code class="hljs${langClass}">${html}</code></pre></div>\n`
	);
}

function renderImage({ href, title, text }: Tokens.Image): string {
	const src = safeImageSrc(href);
	const alt = text.trim();
	if (!src) return `<span class="blocked-image">${escapeHtml(alt ? `[image: ${alt}]` : '[image]')}</span>`;
	const host = hostOf(src);
	const label = `Load image: ${alt || 'untitled'} (${host})`;
	return (
		`<button type="button" class="remote-image" data-src="${escapeHtml(src)}" ` +
		`data-alt="${escapeHtml(alt)}"${titleAttr(title)}>${escapeHtml(label)}</button>`
	);
}

function renderRawHtml({ text, block }: Tokens.HTML | Tokens.Tag): string {
	// Model output is untrusted: any HTML it writes is shown as source, never parsed.
	const escaped = escapeHtml(block ? text.replace(/\n+$/, '') : text);
	return block ? `<p class="raw-html">${escaped.replace(/\n/g, '<br>')}</p>\n` : escaped;
}

const marked = new Marked({ gfm: true, breaks: false, async: false });
marked.use(markedLimits, markedMath, {
	renderer: {
		html: renderRawHtml,
		code: renderCode,
		image: renderImage,
		link(token) {
			const inner = this.parser.parseInline(token.tokens);
			const href = safeLinkHref(token.href);
			if (href === null) return `<span class="blocked-link">${inner}</span>`;
			return (
				`<a href="${escapeHtml(href)}"${titleAttr(token.title)} ` +
				`rel="noopener noreferrer" target="_blank">${inner}</a>`
			);
		}
	}
});

/** HTML for model Markdown, safe by construction; DOMPurify still runs over it in the browser. */
export function markdownToHtml(source: string): string {
	highlightBudget = MAX_HIGHLIGHT_CHARS_PER_DOCUMENT;
	resetMarkedLimits();
	resetMath();
	try {
		return marked.parse(source, { async: false });
	} catch {
		// marked recurses per nesting level; thousands of nested quotes or lists overflow the
		// stack. Showing the text plainly beats showing nothing.
		return `<pre class="markdown-fallback">${escapeHtml(source)}</pre>\n`;
	}
}
