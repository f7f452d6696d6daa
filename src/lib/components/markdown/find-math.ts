// Where math starts and ends in model Markdown: `$…$` and `\(…\)` inline, `$$…$$` and `\[…\]`
// as display math. Dollars are also money, so `$` follows the rule Pandoc uses: the opening `$`
// is not followed by a space, the closing one is not preceded by a space nor followed by a digit
// (`$5 and $6` stays prose). Code is never math: a backtick inside a candidate ends it, and a
// display block never runs over a fence line or a blank line. Pure string work, no KaTeX.

export type MathDelimiter = '$' | '$$' | '\\(' | '\\[';

export interface MathSpan {
	/** The characters the span covers, delimiters included. */
	raw: string;
	/** The TeX between the delimiters. */
	tex: string;
	display: boolean;
	open: MathDelimiter;
}

/** Longest span scanned for a closing delimiter: a formula longer than this stays text. */
export const MAX_MATH_CHARS = 4000;

/**
 * Characters a document may spend looking for closing delimiters. Prose full of lone dollars
 * (a price list) would otherwise rescan up to MAX_MATH_CHARS at each one; once spent, the rest
 * of the document is read as prose. Real answers use a small fraction of it.
 */
const SCAN_BUDGET = 20_000_000;
let scanBudget = SCAN_BUDGET;

/** Called before each document. */
export function resetMathLimits(): void {
	scanBudget = SCAN_BUDGET;
}

const CLOSERS: Record<MathDelimiter, string> = { $: '$', $$: '$$', '\\(': '\\)', '\\[': '\\]' };

const isSpace = (char: string | undefined) => char !== undefined && /\s/.test(char);
const isDigit = (char: string | undefined) => char !== undefined && char >= '0' && char <= '9';

function openerAt(src: string): MathDelimiter | null {
	if (src.startsWith('$$')) return '$$';
	if (src[0] === '$') return '$';
	if (src.startsWith('\\(')) return '\\(';
	if (src.startsWith('\\[')) return '\\[';
	return null;
}

/** Index of the closing delimiter for `open`, searched from `from`, or -1. */
function findCloser(src: string, open: MathDelimiter, from: number): number {
	const closer = CLOSERS[open];
	const end = Math.min(src.length, from + MAX_MATH_CHARS);
	if (scanBudget <= 0) return -1;
	for (let i = from; i < end; i++) {
		const char = src[i];
		if (char === '`') return -1;
		// A blank line ends a paragraph, and with it any formula.
		if (char === '\n' && /^\n[ \t]*\n/.test(src.slice(i, i + 64))) return -1;
		if (src.startsWith(closer, i)) {
			if (open !== '$' || (!isSpace(src[i - 1]) && !isDigit(src[i + 1]))) {
				scanBudget -= i - from;
				return i;
			}
		}
		// A backslash takes the next character with it: `\$` inside a formula does not close it.
		if (char === '\\') i++;
	}
	scanBudget -= end - from;
	return -1;
}

/** The math span that `src` starts with, if any (for inline text). */
export function findInlineMath(src: string): MathSpan | null {
	const open = openerAt(src);
	if (!open) return null;
	if (open === '$' && (isSpace(src[1]) || src[1] === undefined)) return null;
	const close = findCloser(src, open, open.length);
	if (close < 0) return null;
	const tex = src.slice(open.length, close);
	if (tex.trim() === '') return null;
	return { raw: src.slice(0, close + CLOSERS[open].length), tex: tex.trim(), display: open === '$$' || open === '\\[', open };
}

const BLOCK_OPEN = /^ {0,3}(\$\$|\\\[)/;
const FENCE_OR_BLANK = /\n[ \t]*\n|\n {0,3}(?:```|~~~)/;

/**
 * The display block that `src` starts with, if any: `$$` or `\[` at the start of a line (up to
 * three spaces in), its closer ending a line, nothing but spaces after it.
 */
export function findBlockMath(src: string): MathSpan | null {
	const match = BLOCK_OPEN.exec(src);
	if (!match) return null;
	const open = match[1] as MathDelimiter;
	const from = match[0].length;
	const closer = CLOSERS[open];
	const end = Math.min(src.length, from + MAX_MATH_CHARS);
	const found = src.slice(from, end).indexOf(closer);
	if (found < 0) return null;
	const close = from + found;
	const tex = src.slice(from, close);
	if (tex.trim() === '' || tex.includes('`') || FENCE_OR_BLANK.test(tex)) return null;
	const rest = /^[ \t]*(?:\n|$)/.exec(src.slice(close + closer.length));
	if (!rest) return null;
	return { raw: src.slice(0, close + closer.length + rest[0].length), tex: tex.trim(), display: true, open };
}

/**
 * How far ahead the start of the next formula is looked for. marked asks at every piece of
 * plain text, and its text pieces are at most 256 characters (marked-limits.ts), so looking
 * further would only make long paragraphs quadratic.
 */
const START_WINDOW = 512;

/** Where the next inline span could start in `src` (marked stops plain text there), or -1. */
export function inlineMathStart(src: string): number {
	return src.slice(0, START_WINDOW).search(/\$|\\[([]/);
}

/**
 * Where the next display block starts at a line start in the paragraph `src` begins, or -1; lets
 * it interrupt the paragraph. Only the paragraph's first MAX_MATH_CHARS are searched (marked asks
 * at every paragraph); a block further on still shows, as display math inside the paragraph.
 */
export function blockMathStart(src: string): number {
	const window = src.slice(0, MAX_MATH_CHARS);
	const blank = window.search(/\n[ \t]*\n/);
	const paragraph = blank < 0 ? window : window.slice(0, blank);
	const lines = /(?:^|\n)( {0,3}(?:\$\$|\\\[))/g;
	let tried = 0;
	for (let match = lines.exec(paragraph); match && tried < 8; match = lines.exec(paragraph), tried++) {
		const at = match.index + match[0].length - match[1].length;
		if (findBlockMath(src.slice(at))) return at;
	}
	return -1;
}

/** `src` with every `*`, `_` and `~` inside inline math masked, so emphasis never pairs across a formula. */
export function maskMath(src: string): string {
	const opener = /[$\\]/g;
	let out = '';
	let done = 0;
	for (let match = opener.exec(src); match; match = opener.exec(src)) {
		const at = match.index;
		const span = findInlineMath(src.slice(at, at + MAX_MATH_CHARS + 4));
		if (span) {
			out += src.slice(done, at) + span.raw.replace(/[*_~]/g, '+');
			done = opener.lastIndex = at + span.raw.length;
		} else if (src[at] === '\\') {
			// An escaped character is never an opener.
			opener.lastIndex = at + 2;
		}
	}
	return out + src.slice(done);
}
