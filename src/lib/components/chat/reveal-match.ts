// Shows a search match inside the opened transcript: scrolls its message into view, outlines
// it, and highlights the matching words with the CSS Custom Highlight API (no change to the
// rendered Markdown). The words are found as the index found them (see search/snippet.ts).
import { flushSync } from 'svelte';
import { findMarks } from '$lib/search/snippet';
import type { MessageRow } from '$lib/state/shared/view-types';

export const MATCH_HIGHLIGHT = 'search-match';
/** The attribute that marks the message a search opened. */
export const MATCH_ATTRIBUTE = 'data-search-match';

/** True when the message was found and shown. */
export function revealMatch(log: HTMLElement, seq: number, terms: readonly string[]): boolean {
	const article = log.querySelector<HTMLElement>(`article[data-seq="${seq}"]`);
	if (!article) return false;
	log.querySelector(`[${MATCH_ATTRIBUTE}]`)?.removeAttribute(MATCH_ATTRIBUTE);
	article.setAttribute(MATCH_ATTRIBUTE, '');
	const wanted = new Set(terms);
	const ranges: Range[] = [];
	const walker = document.createTreeWalker(article, NodeFilter.SHOW_TEXT);
	for (let node = walker.nextNode(); node; node = walker.nextNode()) {
		const marks = findMarks(node.textContent ?? '', wanted);
		if (marks.length) unfold(node.parentElement, article);
		for (const [start, end] of marks) {
			const range = new Range();
			range.setStart(node, start);
			range.setEnd(node, end);
			ranges.push(range);
		}
	}
	// A row opened for the match is drawn open before the message is brought into view.
	flushSync();
	article.scrollIntoView({ block: 'center' });
	if (typeof CSS !== 'undefined' && 'highlights' in CSS) CSS.highlights.set(MATCH_HIGHLIGHT, new Highlight(...ranges));
	return true;
}

const FOLDED = 'details:not([open]), [hidden="until-found"]';

/** Opens what holds a match out of sight inside `article`: a closed tool-call row (as the browser's find does) or disclosure. */
function unfold(from: Element | null, article: HTMLElement): void {
	for (let at = from?.closest(FOLDED); at && article.contains(at); at = at.parentElement?.closest(FOLDED)) {
		if (at instanceof HTMLDetailsElement) at.open = true;
		else at.dispatchEvent(new Event('beforematch'));
	}
}

/**
 * Where the transcript shows a search match: the index of its own row in `rows`, or, for a
 * message a compaction took out, the index of that compaction's marker (its messages are shown
 * under it); null while neither is there.
 */
export function placeOfMatch(rows: readonly MessageRow[], seq: number, compactedBy: string | null): { index: number; compaction: string | null } | null {
	const own = rows.findIndex((row) => row.seq === seq);
	if (own >= 0) return { index: own, compaction: null };
	const marker = compactedBy === null ? -1 : rows.findIndex((row) => row.compaction?.id === compactedBy);
	return marker >= 0 ? { index: marker, compaction: compactedBy } : null;
}

/**
 * Resolves with the message's row once it is on the page with its text (compacted messages are
 * drawn a few at a time), or null when `signal` aborts first (another session or query was opened).
 */
export function whenDrawn(log: HTMLElement, seq: number, signal: AbortSignal): Promise<HTMLElement | null> {
	// A part whose code is still loading (a tool call's row) holds none of the message's text yet.
	const find = () => {
		const row = log.querySelector<HTMLElement>(`article[data-seq="${seq}"]`);
		return row?.querySelector('[data-loading]') ? null : row;
	};
	return new Promise((resolve) => {
		const found = find();
		if (found || signal.aborted) return resolve(found);
		const observer = new MutationObserver(() => {
			const row = find();
			if (row) done(row);
		});
		const done = (row: HTMLElement | null) => {
			observer.disconnect();
			signal.removeEventListener('abort', stop);
			resolve(row);
		};
		const stop = () => done(null);
		signal.addEventListener('abort', stop);
		observer.observe(log, { childList: true, subtree: true });
	});
}

/** Takes the highlight away (another session opened, the search cleared). */
export function clearMatch(log: HTMLElement | undefined): void {
	log?.querySelector(`[${MATCH_ATTRIBUTE}]`)?.removeAttribute(MATCH_ATTRIBUTE);
	if (typeof CSS !== 'undefined' && 'highlights' in CSS) CSS.highlights.delete(MATCH_HIGHLIGHT);
}
