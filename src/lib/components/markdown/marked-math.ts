// Math as a marked extension: display blocks and inline spans become tokens of their own (so
// code, which marked lexes as code first, is never math), and each is drawn by the TeX renderer
// once it is loaded. Until then a formula shows as written, and the document says it waits.

import type { MarkedExtension, Tokens } from 'marked';
import { escapeHtml } from './escape-html';
import { blockMathStart, findBlockMath, findInlineMath, inlineMathStart, maskMath, resetMathLimits, type MathDelimiter, type MathSpan } from './find-math';

/** HTML for one formula; `display` for a block of its own. */
export type TexRenderer = (tex: string, display: boolean) => string;

type MathToken = Tokens.Generic & MathSpan;

/** Formulas drawn per document; the rest show as written, so a huge paste still renders fast. */
export const MAX_FORMULAS = 1000;

/** The opening delimiter, named in a class so a copied selection can give the formula back as written. */
const DELIMITER_CLASS: Record<MathDelimiter, string> = { $: 'math-dollar', $$: 'math-dollars', '\\(': 'math-paren', '\\[': 'math-bracket' };

let renderTex: TexRenderer | null = null;
let pending = false;
let formulas = 0;

/** From now on formulas are drawn with `render`. */
export function useTexRenderer(render: TexRenderer): void {
	renderTex = render;
}

/** Whether the last document held math that waits for the TeX renderer to load. */
export function mathPending(): boolean {
	return pending;
}

/** Called before each document. */
export function resetMath(): void {
	pending = false;
	formulas = 0;
	resetMathLimits();
}

function renderMath(token: MathToken): string {
	const classes = `math ${DELIMITER_CLASS[token.open]}`;
	if (!renderTex || formulas >= MAX_FORMULAS) {
		pending ||= !renderTex;
		return `<span class="${classes} math-source">${escapeHtml(token.raw.trim())}</span>`;
	}
	formulas++;
	return `<span class="${classes}">${renderTex(token.tex, token.display)}</span>`;
}

const asToken = (type: string, span: MathSpan | null): MathToken | undefined => (span ? { type, ...span } : undefined);

export const markedMath: MarkedExtension = {
	extensions: [
		{
			name: 'mathBlock',
			level: 'block',
			start: blockMathStart,
			tokenizer: (src) => asToken('mathBlock', findBlockMath(src)),
			renderer: (token) => `<div class="math-block">${renderMath(token as MathToken)}</div>\n`
		},
		{
			name: 'mathInline',
			level: 'inline',
			start: inlineMathStart,
			tokenizer: (src) => asToken('mathInline', findInlineMath(src)),
			renderer: (token) => renderMath(token as MathToken)
		}
	],
	hooks: { emStrongMask: maskMath }
};
