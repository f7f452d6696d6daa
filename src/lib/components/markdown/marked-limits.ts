// Keeps marked near-linear on hostile or huge input. Some of its rules rescan the rest of a
// paragraph at every step, and nesting re-lexes each level's content, so 1 MB of `*a*a…` took
// minutes and 1,000 nested lists 9 s. These overrides bound each rescan and the nesting depth.

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
	nesting = 0;
}

/** `false` lets marked's own rule run; `undefined` means "no match here". */
function chargeDelimiterScan(src: string): false | undefined {
	const char = src[0];
	if (char !== '*' && char !== '_' && char !== '~') return false;
	delimiterBudget -= src.length;
	return delimiterBudget >= 0 ? false : undefined;
}

/** Longest link or image, label and URL included, that is still recognised as one. */
const LINK_WINDOW = 8192;

/**
 * Quotes are lexed through a window: marked's quote rule first matches every following line
 * that could continue it, then re-slices the remaining lines once per lazy continuation line,
 * so many short quotes, or one long quote interleaved with unquoted lines (a pasted email
 * thread), were quadratic: 1 MB took minutes. The window starts small and grows while the
 * quote fills it; a quote longer than the largest renders as several adjacent quotes.
 */
const QUOTE_WINDOW_START = 1024;
const QUOTE_WINDOW_MAX = 4096;

/** A prefix of src of about `max` characters that ends at a line end, never mid-line. */
function windowAtLine(src: string, max: number): string {
	if (src.length <= max) return src;
	const before = src.lastIndexOf('\n', max - 1);
	if (before >= 0) return src.slice(0, before + 1);
	const after = src.indexOf('\n', max);
	return after < 0 ? src : src.slice(0, after + 1);
}

/** Deeper lists and quotes are shown as plain lines; real text never nests this far. */
const MAX_NESTING = 16;
let nesting = 0;

function nested<T>(run: () => T): T | undefined {
	if (nesting >= MAX_NESTING) return undefined;
	nesting++;
	try {
		return run();
	} finally {
		nesting--;
	}
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
		link(src) {
			// Without whitespace the URL part matches greedily to the end of the run and then
			// backtracks, so back-to-back links cost O(run) each.
			if (src.length <= LINK_WINDOW) return false;
			return original.link.call(this, src.slice(0, LINK_WINDOW));
		},
		list(src) {
			return nested(() => original.list.call(this, src));
		},
		blockquote(src) {
			return nested(() => {
				for (let size = QUOTE_WINDOW_START; ; size *= 4) {
					const window = windowAtLine(src, size);
					const token = original.blockquote.call(this, window);
					const filled = token && window.slice(token.raw.length).trim() === '';
					if (!filled || window.length === src.length || size >= QUOTE_WINDOW_MAX) return token;
				}
			});
		},
		url(src) {
			// Web URLs may be long and are matched in one linear pass: keep them whole.
			// Anything else can only be a bare email address, which fits in the window.
			if (src.length <= LOOKAHEAD || WEB_URL_START.test(src)) return false;
			return original.url.call(this, src.slice(0, LOOKAHEAD));
		}
	}
};
