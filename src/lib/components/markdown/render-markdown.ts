// Public entry point: model Markdown to HTML that is safe to hand to {@html}.

import { copyMathSource } from './copy-math-source';
import { markdownToHtml } from './markdown-to-html';
import { mathPending, useTexRenderer } from './marked-math';
import { sanitizeHtml, sanitizeTrustedHtml, type SafeHtml } from './sanitize-html';

export function renderMarkdown(source: string): string {
	return sanitizeHtml(markdownToHtml(source));
}

/** The same HTML, as the page hands it to {@html} (a TrustedHTML under Trusted Types). */
export function renderTrustedMarkdown(source: string): SafeHtml {
	return sanitizeTrustedHtml(markdownToHtml(source));
}

/** Loads KaTeX (a chunk of its own, with its stylesheet); documents rendered after it show their math drawn. */
export async function loadMath(): Promise<void> {
	useTexRenderer((await import('./render-tex')).renderTex);
	// A copied selection then gives drawn formulas back as their TeX.
	if (typeof document !== 'undefined') document.addEventListener('copy', copyMathSource);
}

let mathLoading: Promise<void> | null = null;

/**
 * renderTrustedMarkdown that loads KaTeX the first time a document holds math, then calls
 * `redraw` so what was shown with its formulas as written is drawn again. A failed load (offline
 * before the chunk was cached) is tried again by the next document with math.
 */
export function renderWithMath(redraw: () => void): (source: string) => SafeHtml {
	return (source) => {
		const html = renderTrustedMarkdown(source);
		if (mathPending()) {
			mathLoading ??= loadMath().then(redraw, (error) => {
				mathLoading = null;
				console.warn('Could not load the math renderer', error);
			});
		}
		return html;
	};
}

export { warmUpSamples } from './warm-up-samples';
