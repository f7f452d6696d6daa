// Public entry point: model Markdown to HTML that is safe to hand to {@html}.

import { markdownToHtml } from './markdown-to-html';
import { sanitizeHtml } from './sanitize-html';

export function renderMarkdown(source: string): string {
	return sanitizeHtml(markdownToHtml(source));
}
