// Syntax highlighting for fenced code blocks with highlight.js core and a few common
// languages only: the full bundle (190+ grammars) would dwarf the rest of the app.

import hljs from 'highlight.js/lib/core';
import bash from 'highlight.js/lib/languages/bash';
import css from 'highlight.js/lib/languages/css';
import diff from 'highlight.js/lib/languages/diff';
import go from 'highlight.js/lib/languages/go';
import javascript from 'highlight.js/lib/languages/javascript';
import json from 'highlight.js/lib/languages/json';
import markdown from 'highlight.js/lib/languages/markdown';
import python from 'highlight.js/lib/languages/python';
import rust from 'highlight.js/lib/languages/rust';
import shell from 'highlight.js/lib/languages/shell';
import sql from 'highlight.js/lib/languages/sql';
import typescript from 'highlight.js/lib/languages/typescript';
import xml from 'highlight.js/lib/languages/xml';
import yaml from 'highlight.js/lib/languages/yaml';
import { escapeHtml } from './escape-html';

const grammars = { bash, css, diff, go, javascript, json, markdown, python, rust, shell, sql, typescript, xml, yaml };
for (const [name, grammar] of Object.entries(grammars)) hljs.registerLanguage(name, grammar);
export const HIGHLIGHTED_LANGUAGES = Object.keys(grammars);
// Fence names models commonly use that the grammars above do not already alias.
hljs.registerAliases(['sh', 'zsh', 'console'], { languageName: 'bash' });
hljs.registerAliases(['jsonc', 'json5'], { languageName: 'json' });
hljs.registerAliases(['svg', 'htm'], { languageName: 'xml' });

/** Above this size a block is shown as plain text: highlighting megabytes blocks the tab. */
export const MAX_HIGHLIGHT_CHARS = 100_000;

export interface HighlightedCode {
	/** Safe HTML for the inside of `<code>`. */
	html: string;
	/** Canonical grammar name when highlighted, otherwise null. */
	language: string | null;
}

/** The first word of a fence info string, e.g. "ts" from "ts title=x". */
export function fenceLanguage(info: string | undefined): string {
	return (info ?? '').trim().split(/\s+/, 1)[0].toLowerCase();
}

export function highlightCode(text: string, info: string | undefined): HighlightedCode {
	const name = fenceLanguage(info);
	const grammar = name ? hljs.getLanguage(name) : undefined;
	// No auto-detection for unlabelled blocks: it runs every grammar over the text.
	if (!grammar || text.length > MAX_HIGHLIGHT_CHARS) return { html: escapeHtml(text), language: null };
	try {
		const result = hljs.highlight(text, { language: name, ignoreIllegals: true });
		return { html: result.value, language: name };
	} catch {
		return { html: escapeHtml(text), language: null };
	}
}
