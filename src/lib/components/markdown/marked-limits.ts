// Keeps marked linear on hostile or huge input. Some of its inline rules rescan the rest of
// a paragraph at every step, so one long paragraph of `*a*a…` or `_a_a…` is quadratic
// (200 KB took 11 s, 1 MB several minutes). These overrides bound each rescan.

import { Tokenizer, type MarkedExtension } from 'marked';

const original = Tokenizer.prototype;

/**
 * Longest span inline text and email autolinks may look ahead: an email address is at most
 * 254 characters, so a longer lookahead never changes the result that matters.
 */
const LOOKAHEAD = 256;

/**
 * Emphasis and strikethrough search for their closer across the rest of the paragraph. Each
 * search is charged that length; once a document has spent this budget, remaining
 * delimiters are shown literally. Ordinary prose uses a small fraction of it.
 */
const DELIMITER_SCAN_BUDGET = 30_000_000;
let delimiterBudget = DELIMITER_SCAN_BUDGET;

/** Called before each document. */
export function resetMarkedLimits(): void {
	delimiterBudget = DELIMITER_SCAN_BUDGET;
}

/** `false` lets marked's own rule run; `undefined` means "no match here". */
function chargeDelimiterScan(src: string): false | undefined {
	const char = src[0];
	if (char !== '*' && char !== '_' && char !== '~') return false;
	delimiterBudget -= src.length;
	return delimiterBudget >= 0 ? false : undefined;
}

const WEB_URL_START = /^(?:(?:https?|ftp):\/\/|www\.|mailto:|xmpp:)/i;

export const markedLimits: MarkedExtension = {
	tokenizer: {
		emStrong: chargeDelimiterScan,
		del: chargeDelimiterScan,
		inlineText(src) {
			// The text rule peeks ahead for an email address at every token; on a window it
			// costs O(window) per token instead of O(rest of paragraph). Adjacent text
			// tokens are merged by marked, so splitting a long run changes nothing visible.
			if (src.length <= LOOKAHEAD) return false;
			return original.inlineText.call(this, src.slice(0, LOOKAHEAD));
		},
		url(src) {
			// Web URLs may be long and are matched in one linear pass: keep them whole.
			// Anything else can only be a bare email address, which fits in the window.
			if (src.length <= LOOKAHEAD || WEB_URL_START.test(src)) return false;
			return original.url.call(this, src.slice(0, LOOKAHEAD));
		}
	}
};
