// Public entry point: model Markdown to HTML that is safe to hand to {@html}.

import { markdownToHtml } from './markdown-to-html';
import { sanitizeHtml, sanitizeTrustedHtml, type SafeHtml } from './sanitize-html';

export function renderMarkdown(source: string): string {
	return sanitizeHtml(markdownToHtml(source));
}

/** The same HTML, as the page hands it to {@html} (a TrustedHTML under Trusted Types). */
export function renderTrustedMarkdown(source: string): SafeHtml {
	return sanitizeTrustedHtml(markdownToHtml(source));
}

export { warmUpSamples } from './warm-up-samples';
