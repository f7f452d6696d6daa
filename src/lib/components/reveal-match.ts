// Shows a search match inside the opened transcript: scrolls its message into view, outlines
// it, and highlights the matching words with the CSS Custom Highlight API (no change to the
// rendered Markdown). The words are found as the index found them (see search/snippet.ts).
import { findMarks } from '$lib/search/snippet';

export const MATCH_HIGHLIGHT = 'search-match';
/** The attribute that marks the message a search opened. */
export const MATCH_ATTRIBUTE = 'data-search-match';

/** True when the message was found and shown. */
export function revealMatch(log: HTMLElement, seq: number, terms: readonly string[]): boolean {
	const article = log.querySelector<HTMLElement>(`article[data-seq="${seq}"]`);
	if (!article) return false;
	log.querySelector(`[${MATCH_ATTRIBUTE}]`)?.removeAttribute(MATCH_ATTRIBUTE);
	article.setAttribute(MATCH_ATTRIBUTE, '');
	article.scrollIntoView({ block: 'center' });
	if (typeof CSS === 'undefined' || !('highlights' in CSS)) return true;
	const wanted = new Set(terms);
	const ranges: Range[] = [];
	const walker = document.createTreeWalker(article, NodeFilter.SHOW_TEXT);
	for (let node = walker.nextNode(); node; node = walker.nextNode()) {
		for (const [start, end] of findMarks(node.textContent ?? '', wanted)) {
			const range = new Range();
			range.setStart(node, start);
			range.setEnd(node, end);
			ranges.push(range);
		}
	}
	CSS.highlights.set(MATCH_HIGHLIGHT, new Highlight(...ranges));
	return true;
}

/** Takes the highlight away (another session opened, the search cleared). */
export function clearMatch(log: HTMLElement | undefined): void {
	log?.querySelector(`[${MATCH_ATTRIBUTE}]`)?.removeAttribute(MATCH_ATTRIBUTE);
	if (typeof CSS !== 'undefined' && 'highlights' in CSS) CSS.highlights.delete(MATCH_HIGHLIGHT);
}
