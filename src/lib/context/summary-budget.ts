// How long a compaction summary may be, and what a summary must free to be worth keeping. A
// summary nearly as long as what it replaces costs a compaction (and the model's detail) for
// nothing: every summary gets a budget of about a fifth of the tokens it replaces, the writer is
// asked for it, an answer that runs over is cut at a section boundary, and a compaction that
// still frees under a tenth of what it replaced changes nothing. Pure.

/** The share of the replaced tokens a summary may use. */
export const SUMMARY_RATIO = 0.2;
/** Below this a summary of the fixed template cannot say anything useful. */
export const SUMMARY_MIN_TOKENS = 256;
/** Above this a summary stops being a summary (and costs every later request). */
export const SUMMARY_MAX_TOKENS = 8_000;
/** A compaction that frees less than this share of the tokens it replaced is a no-op. */
export const MIN_FREED_RATIO = 0.1;

/** The tokens a summary of `replacedTokens` tokens may use. */
export function summaryBudget(replacedTokens: number): number {
	const wanted = Math.round(Math.max(0, replacedTokens) * SUMMARY_RATIO);
	return Math.min(SUMMARY_MAX_TOKENS, Math.max(SUMMARY_MIN_TOKENS, wanted));
}

/** Whether freeing `freedTokens` is worth a compaction that replaced `replacedTokens`. */
export function freesEnough(replacedTokens: number, freedTokens: number): boolean {
	return freedTokens > 0 && freedTokens >= replacedTokens * MIN_FREED_RATIO;
}

/** The note that ends a summary cut to its budget, so a reader knows sections were left out. */
export const CUT_NOTE = '(Later sections were left out to keep the summary within its budget.)';

/**
 * `text` within `budget` tokens by `count`: unchanged when it fits, else its leading sections
 * (a section starts at a Markdown heading) that fit with a closing note; when even the first
 * section does not fit, its leading words.
 */
export function cutToBudget(text: string, budget: number, count: (text: string) => number): string {
	if (count(text) <= budget) return text;
	const sections = text.split(/\n(?=#{1,6}\s)/);
	let kept = '';
	for (const section of sections) {
		const next = kept ? `${kept}\n${section}` : section;
		if (count(`${next}\n\n${CUT_NOTE}`) > budget) break;
		kept = next;
	}
	if (kept) return `${kept.trimEnd()}\n\n${CUT_NOTE}`;
	// Even the first section does not fit: its longest leading run of words that does.
	const words = text.split(/(?<=\s)/);
	let low = 0;
	let high = words.length;
	while (low < high) {
		const mid = Math.ceil((low + high) / 2);
		if (count(`${words.slice(0, mid).join('').trimEnd()}…\n\n${CUT_NOTE}`) <= budget) low = mid;
		else high = mid - 1;
	}
	return `${words.slice(0, low).join('').trimEnd()}…\n\n${CUT_NOTE}`;
}
