// The Markdown renderer (marked, DOMPurify and highlight.js: about 50 KB gzip) is not part of
// the first screen: it loads when a message is first shown, or in idle time after start-up,
// whichever comes first. Until then a message shows as plain text. The service worker
// precaches its chunk with the rest, so it loads offline too. KaTeX loads later still, when a
// message first holds math; every message is then drawn again, its math included.

import type { SafeHtml } from './sanitize-html';

type Render = (source: string) => SafeHtml;

let current = $state<Render | null>(null);
let loading: Promise<Render> | null = null;

/** The renderer once loaded (reactive), else null. */
export function markdownRenderer(): Render | null {
	return current;
}

/** Loads the renderer (once; a failed load is tried again on the next call). */
export function loadMarkdownRenderer(): Promise<Render> {
	loading ??= import('./render-markdown').then(
		(module) => {
			// A new function once KaTeX is in, so every shown message renders again.
			const render: Render = module.renderWithMath(() => (current = (source) => render(source)));
			warmUp(render, module.warmUpSamples());
			return (current = render);
		},
		(error) => {
			loading = null;
			throw error;
		}
	);
	return loading;
}

/** Runs `work` in an idle period: how long it may take (ms) is its argument. */
function whenIdle(work: (remaining: () => number) => void): void {
	if (typeof requestIdleCallback === 'function') requestIdleCallback((deadline) => work(() => deadline.timeRemaining()), { timeout: 2000 });
	else setTimeout(() => work(() => 0), 0);
}

/** A warm-up step's share of an idle period: a few samples, well under a long task on a busy machine. */
const WARM_UP_STEP_MS = 8;

/** Draws the warm-up samples, a few in each idle period: no message shown later pays for a first use. */
function warmUp(render: Render, samples: string[]): void {
	const next = (remaining: () => number) => {
		const started = performance.now();
		// At least one per period, so the warm-up ends even on a page that is never idle for long.
		do render(samples.shift() as string);
		while (samples.length && remaining() > 5 && performance.now() - started < WARM_UP_STEP_MS);
		if (samples.length) whenIdle(next);
	};
	if (samples.length) whenIdle(next);
}

/** Loads the renderer when the page is idle, so the first message shown needs no wait. */
export function preloadMarkdownRenderer(): void {
	whenIdle(() => void loadMarkdownRenderer().catch(() => {}));
}
