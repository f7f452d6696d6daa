// Draws TeX with KaTeX, loaded only once a message holds math (with its stylesheet and fonts,
// which the service worker keeps for offline use). Model output is untrusted: no command that
// links, loads or writes HTML or classes runs (`trust: false`), sizes and macro expansion are
// bounded, and a bad formula shows as its source marked as an error instead of breaking the message.

import katex, { type KatexOptions } from 'katex';
import 'katex/dist/katex.min.css';
import { escapeHtml } from './escape-html';

const OPTIONS: KatexOptions = {
	throwOnError: false,
	trust: false,
	// Unusual but valid input (Unicode in math mode, …) is drawn without console noise.
	strict: 'ignore',
	// In em: a `\rule` or `\kern` of any size cannot cover the page.
	maxSize: 20,
	// Macro expansions per formula: `\def\a{\a\a}\a` stops at once.
	maxExpand: 200,
	output: 'htmlAndMathml'
};

/** Formulas kept drawn: a streaming answer re-renders its text at every token. */
const CACHE_SIZE = 500;
const cache = new Map<string, string>();

export function renderTex(tex: string, display: boolean): string {
	const key = (display ? 'D' : 'I') + tex;
	let html = cache.get(key);
	if (html === undefined) {
		try {
			// No macros object is passed: a `\gdef` in one formula cannot reach the next.
			html = katex.renderToString(tex, { ...OPTIONS, displayMode: display });
		} catch {
			html = `<span class="katex-error">${escapeHtml(tex)}</span>`;
		}
		if (cache.size >= CACHE_SIZE) cache.delete(cache.keys().next().value as string);
	} else {
		cache.delete(key);
	}
	cache.set(key, html);
	return html;
}
