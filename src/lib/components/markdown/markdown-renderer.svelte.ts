// The Markdown renderer (marked, DOMPurify and highlight.js: about 50 KB gzip) is not part of
// the first screen: it loads when a message is first shown, or in idle time after start-up,
// whichever comes first. Until then a message shows as plain text. The service worker
// precaches its chunk with the rest, so it loads offline too.

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
		(module) => (current = module.renderTrustedMarkdown),
		(error) => {
			loading = null;
			throw error;
		}
	);
	return loading;
}

/** Loads the renderer when the page is idle, so the first message shown needs no wait. */
export function preloadMarkdownRenderer(): void {
	const load = () => void loadMarkdownRenderer().catch(() => {});
	if (typeof requestIdleCallback === 'function') requestIdleCallback(load, { timeout: 2000 });
	else setTimeout(load, 0);
}
