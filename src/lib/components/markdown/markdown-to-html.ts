// Turns model Markdown into HTML with every unsafe construct defused at the source:
// raw HTML is shown as text, links are scheme-checked, images become click-to-load
// placeholders. Pure string work, so it runs (and is tested) without a DOM.

import { Marked, type Tokens } from 'marked';
import { escapeHtml } from './escape-html';
import { highlightCode, MAX_HIGHLIGHT_CHARS } from './highlight-code';
import { hostOf, safeImageSrc, safeLinkHref } from './safe-url';

/** Highlighting budget per document, so a pasted log of many blocks still renders fast. */
const MAX_HIGHLIGHT_CHARS_PER_DOCUMENT = 2 * MAX_HIGHLIGHT_CHARS;
let highlightBudget = MAX_HIGHLIGHT_CHARS_PER_DOCUMENT;

/**
 * marked looks for the closer of every `*`, `_` or `~` by scanning the rest of the paragraph,
 * so a long run of unmatched delimiters is quadratic (200 KB of `*a` took 11 s). Each scan
 * is charged the length it may cover; once a document has spent this many characters, the
 * remaining delimiters are shown literally. Ordinary prose spends a tiny fraction of it.
 */
const MAX_DELIMITER_SCAN_PER_DOCUMENT = 30_000_000;
let delimiterBudget = MAX_DELIMITER_SCAN_PER_DOCUMENT;

/** `false` lets marked's own tokenizer run; `undefined` tells it there is no match here. */
function chargeDelimiterScan(src: string): false | undefined {
	const char = src[0];
	if (char !== '*' && char !== '_' && char !== '~') return false;
	delimiterBudget -= src.length;
	return delimiterBudget >= 0 ? false : undefined;
}

function titleAttr(title: string | null | undefined): string {
	return title ? ` title="${escapeHtml(title)}"` : '';
}

function renderCode({ text, lang }: Tokens.Code): string {
	const { html, language } = highlightCode(text, text.length <= highlightBudget ? lang : undefined);
	if (language) highlightBudget -= text.length;
	const langClass = language ? ` language-${language}` : '';
	const label = language ? `<span class="code-lang">${escapeHtml(language)}</span>` : '';
	return (
		`<div class="code-block">${label}` +
		'<button type="button" class="copy-code" aria-label="Copy code">Copy</button>' +
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
marked.use({
	tokenizer: {
		emStrong: chargeDelimiterScan,
		del: chargeDelimiterScan
	},
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
	delimiterBudget = MAX_DELIMITER_SCAN_PER_DOCUMENT;
	try {
		return marked.parse(source, { async: false });
	} catch {
		// marked recurses per nesting level; thousands of nested quotes or lists overflow the
		// stack. Showing the text plainly beats showing nothing.
		return `<pre class="markdown-fallback">${escapeHtml(source)}</pre>\n`;
	}
}
