import { describe, expect, it } from 'vitest';
import { renderMarkdown } from './render-markdown';

// Each input below took from 9 seconds to several minutes with stock marked. The bounds are
// generous; the point is "does not hang", not a benchmark. They count this process's CPU time
// (each test file runs in a process of its own), so a machine busy with other work does not
// fail them.
const MB = 1_000_000;
const repeat = (unit: string) => unit.repeat(Math.ceil(MB / unit.length));

function timed(source: string): { html: string; ms: number } {
	const started = process.cpuUsage();
	const html = renderMarkdown(source);
	const used = process.cpuUsage(started);
	return { html, ms: (used.user + used.system) / 1000 };
}

describe('marked limits on huge or hostile input', () => {
	it.each([
		['unmatched underscores', repeat('_a')],
		['alternating emphasis', repeat('*a')],
		['back-to-back links', repeat('[a](http://x.y/z)')],
		['an email thread of lazy quote lines', repeat('> quoted line\nreply line\n')]
	])('renders 1 MB of %s in seconds', (_name, source) => {
		const { html, ms } = timed(source);
		expect(ms).toBeLessThan(8000);
		expect(html.length).toBeGreaterThan(MB / 2);
	});

	it('caps list and quote nesting instead of re-lexing 1,000 levels', () => {
		const lists = Array.from({ length: 1000 }, (_, i) => ' '.repeat(i * 2) + '- x').join('\n');
		const { html, ms } = timed(lists);
		expect(ms).toBeLessThan(8000);
		expect(html.match(/<ul>/g)?.length).toBe(16);
		expect(renderMarkdown('> '.repeat(5000) + 'deep').match(/<blockquote>/g)?.length).toBe(16);
	});

	it('keeps emphasis in ordinary text', () => {
		const html = renderMarkdown(repeat('Some *text* with **bold** and ~~del~~.\n\n'));
		expect(html).toContain('<em>text</em>');
		expect(html.endsWith('<p>Some <em>text</em> with <strong>bold</strong> and <del>del</del>.</p>\n')).toBe(true);
	});

	it('keeps a long quoted paragraph inside the quote', () => {
		const line = Array(2000).fill('word').join(' ');
		const html = renderMarkdown(`> ${line}\n\nafter`);
		expect(html === `<blockquote>\n<p>${line}</p>\n</blockquote>\n<p>after</p>\n`).toBe(true);
	});

	it('still autolinks bare URLs and email addresses', () => {
		const html = renderMarkdown('x'.repeat(300) + ' see https://example.com/a or mail me@example.com');
		expect(html).toContain('href="https://example.com/a"');
		expect(html).toContain('href="mailto:me@example.com"');
	});
});
