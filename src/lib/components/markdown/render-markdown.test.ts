import { beforeAll, describe, expect, it } from 'vitest';
import { MAX_HIGHLIGHT_CHARS } from './highlight-code';
import { loadMath, renderMarkdown } from './render-markdown';

// In Node there is no DOM, so these exercise markdown-to-html on its own: the output must
// already be safe before DOMPurify ever sees it.

describe('renderMarkdown: raw HTML', () => {
	it('shows a block <script> as text, not a tag', () => {
		const html = renderMarkdown('<script>alert(1)</script>');
		expect(html).not.toMatch(/<script/i);
		expect(html).toContain('&lt;script&gt;alert(1)&lt;/script&gt;');
	});

	it('shows inline <img onerror> as text', () => {
		const html = renderMarkdown('hello <img src=x onerror=alert(1)> world');
		expect(html).not.toMatch(/<img/i);
		expect(html).toContain('&lt;img src=x onerror=alert(1)&gt;');
	});

	it.each([
		'<iframe src="https://evil.example"></iframe>',
		'<svg><script>alert(1)</script></svg>',
		'<style>body{display:none}</style>',
		'<form action="https://evil.example"><input name=x></form>',
		'<a href="javascript:alert(1)">x</a>',
		'text <b onmouseover="alert(1)">bold</b>'
	])('never emits a live tag for %s', (source) => {
		const html = renderMarkdown(source);
		expect(html).not.toMatch(/<(iframe|svg|script|style|form|input|b)[\s>]/i);
		expect(html).not.toMatch(/<a\s/i);
		expect(html).toContain('&lt;');
	});
});

describe('renderMarkdown: links', () => {
	it('opens safe links in a new tab without an opener or referrer', () => {
		const html = renderMarkdown('[docs](https://example.com/a?b=1&c=2)');
		expect(html).toContain('href="https://example.com/a?b=1&amp;c=2"');
		expect(html).toContain('rel="noopener noreferrer"');
		expect(html).toContain('target="_blank"');
	});

	it('keeps mailto links and in-page anchors', () => {
		expect(renderMarkdown('[me](mailto:a@example.com)')).toContain('href="mailto:a@example.com"');
		expect(renderMarkdown('[up](#top)')).toContain('href="#top"');
	});

	it.each([
		'[x](javascript:alert(1))',
		'[x](JaVaScRiPt:alert(1))',
		'[x](<java\tscript:alert(1)>)',
		'[x](javas&#99;ript:alert(1))',
		'[x](&#x6A;avascript:alert(1))',
		'[x](data:text/html;base64,PHNjcmlwdD4=)',
		'[x](vbscript:msgbox(1))',
		'<javascript:alert(1)>',
		'[x][r]\n\n[r]: javascript:alert(1)',
		'[x](//evil.example/path)',
		'[x](/relative/path)'
	])('neutralises %s', (source) => {
		const html = renderMarkdown(source);
		expect(html).not.toContain('href=');
		expect(html).toContain('class="blocked-link"');
	});

	it('escapes quotes in hrefs and titles', () => {
		const html = renderMarkdown('[x](https://e.com/"onmouseover="alert(1) "t\\"itle")');
		expect(html).not.toMatch(/"\s*onmouseover=/);
	});
});

describe('renderMarkdown: images', () => {
	it('turns an image into a click-to-load placeholder with no src', () => {
		const html = renderMarkdown('![a cat](https://img.example/cat.png)');
		expect(html).not.toMatch(/<img/i);
		expect(html).not.toMatch(/\ssrc=/i);
		expect(html).toContain('<button type="button" class="remote-image"');
		expect(html).toContain('data-src="https://img.example/cat.png"');
		expect(html).toContain('data-alt="a cat"');
		expect(html).toContain('Load image: a cat (img.example)');
	});

	it('refuses non-http images outright', () => {
		const html = renderMarkdown('![x](javascript:alert(1)) ![y](data:image/png;base64,AAAA)');
		expect(html).not.toContain('remote-image');
		expect(html).not.toContain('data-src');
		expect(html).toContain('[image: x]');
	});

	it('escapes hostile alt text', () => {
		const html = renderMarkdown('![" onfocus="alert(1)](https://img.example/a.png)');
		expect(html).toContain('data-alt="&quot; onfocus=&quot;alert(1)"');
	});
});

describe('renderMarkdown: code', () => {
	it('highlights known languages with hljs classes', () => {
		const html = renderMarkdown('```ts\nconst x: number = 1;\n```');
		expect(html).toContain('<code class="hljs language-ts">');
		expect(html).toContain('<span class="hljs-keyword">const</span>');
	});

	it('names the copy button by its text and gives it a polite region for the result', () => {
		const html = renderMarkdown('```ts\nconst x = 1;\n```');
		// No aria-label: it would override the button's changing text ("Copied", "Copy failed").
		expect(html).toContain('<button type="button" class="copy-code">Copy code</button>');
		expect(html).not.toContain('aria-label');
		expect(html).toContain('<span class="copy-status" aria-live="polite"></span>');
	});

	it('escapes code in unknown languages as plain text', () => {
		const html = renderMarkdown('```brainfuck\n<script>alert(1)</script>\n```');
		expect(html).toContain('<code class="hljs">&lt;script&gt;');
		expect(html).not.toContain('language-brainfuck');
	});

	it('escapes hostile fence info strings', () => {
		const html = renderMarkdown('```"><script>alert(1)</script>\nx\n```');
		expect(html).not.toMatch(/<script/i);
	});

	it('renders a huge block unhighlighted, and quickly', () => {
		const big = 'let x = 1; // <b>\n'.repeat(Math.ceil((MAX_HIGHLIGHT_CHARS * 2) / 18));
		const started = performance.now();
		const html = renderMarkdown('```js\n' + big + '```');
		expect(performance.now() - started).toBeLessThan(2000);
		expect(html).not.toContain('hljs-keyword');
		expect(html).toContain('&lt;b&gt;');
	});

	it('renders a 1 MB mixed paste without hanging', () => {
		const chunk = '# Title\n\nSome *text* with `code` and [a link](https://e.com).\n\n```py\nprint("hi")\n```\n\n';
		const source = chunk.repeat(Math.ceil(1_000_000 / chunk.length));
		// This process's CPU time (a test file runs in a process of its own): a busy machine does not fail it.
		const started = process.cpuUsage();
		const html = renderMarkdown(source);
		const used = process.cpuUsage(started);
		expect((used.user + used.system) / 1000).toBeLessThan(5000);
		expect(html.length).toBeGreaterThan(source.length);
	});
});

describe('renderMarkdown: GFM', () => {
	it('renders tables, strikethrough and task lists', () => {
		const html = renderMarkdown('| a | b |\n|---|---|\n| 1 | ~~2~~ |\n\n- [x] done');
		expect(html).toContain('<table>');
		expect(html).toContain('<del>2</del>');
		expect(html).toMatch(/<input checked="" disabled="" type="checkbox">/);
	});
});

describe('renderMarkdown: math', () => {
	beforeAll(loadMath);

	it('draws math with KaTeX, MathML and its source kept for copying', () => {
		const html = renderMarkdown('Energy $E=mc^2$ and\n\n$$\n\\frac{1}{2}\n$$');
		expect(html).toContain('<span class="math math-dollar"><span class="katex">');
		expect(html).toContain('<annotation encoding="application/x-tex">E=mc^2</annotation>');
		expect(html).toContain('<math xmlns="http://www.w3.org/1998/Math/MathML" display="block">');
		expect(html).not.toContain('$E=mc^2$');
	});

	it('shows a bad formula as its source, marked as an error, and the rest of the message', () => {
		const html = renderMarkdown('Before $\\frac{a$ after');
		expect(html).toMatch(/<span class="katex-error" title="ParseError[^"]*"[^>]*>\\frac\{a<\/span>/);
		expect(html).toContain(' after</p>');
	});

	it.each([
		'\\href{javascript:alert(1)}{x}',
		'\\url{javascript:alert(1)}',
		'\\href{https://evil.example}{x}',
		'\\htmlClass{evil}{x}',
		'\\htmlId{evil}{x}',
		'\\htmlStyle{background:url(https://evil.example/t.png)}{x}',
		'\\htmlData{evil=1}{x}',
		'\\includegraphics{https://evil.example/a.png}',
		'\\color{url(https://evil.example/t.png)}{x}'
	])('never turns %s into a link, a class, a style that fetches or an image', (tex) => {
		const html = renderMarkdown(`Text $${tex}$ more`);
		expect(html).not.toMatch(/<(a|img|script|iframe|object|image|use)[\s>]/i);
		// The source may show as text (an error, or its annotation); no attribute carries it.
		const attributes = [...html.matchAll(/\s([\w:-]+)="([^"]*)"/g)].filter(([, name]) => name !== 'title');
		for (const [, name, value] of attributes) {
			expect(name).toMatch(/^(class|style|aria-hidden|xmlns|encoding|mathcolor|display|mathvariant|stretchy|width|height|viewBox|preserveAspectRatio|d)$/);
			expect(value).not.toMatch(/url\(|javascript:|evil/i);
		}
		expect(html).toContain(' more</p>');
	});

	it('bounds sizes and macro expansion', () => {
		const huge = renderMarkdown('$$\\rule{100000em}{100000em}$$');
		const sizes = [...huge.matchAll(/(?:width|height|border-right-width|border-top-width):\s*([\d.]+)em/g)].map((m) => Number(m[1]));
		expect(sizes.length).toBeGreaterThan(0);
		expect(Math.max(...sizes)).toBeLessThanOrEqual(20);
		const started = performance.now();
		expect(renderMarkdown('$\\def\\a{\\a\\a}\\a$')).toContain('katex-error');
		// A macro defined in one formula does not reach the next.
		expect(renderMarkdown('$\\gdef\\x{1}\\x$ $\\x$').match(/<mn>1<\/mn>/g)).toHaveLength(1);
		expect(performance.now() - started).toBeLessThan(2000);
	});

	it('draws at most a bounded number of formulas per message, the rest as written', () => {
		const html = renderMarkdown('$x$ '.repeat(1200));
		expect(html.match(/class="katex"/g)?.length).toBe(1000);
		expect(html.match(/math-source/g)?.length).toBe(200);
	});
});
