import { describe, expect, it } from 'vitest';
import { findBlockMath, findInlineMath, maskMath } from './find-math';
import { markdownToHtml } from './markdown-to-html';

// What counts as math in a model's answer, and what stays prose or code. Before KaTeX loads,
// a formula renders as a `.math` span holding its source, so the HTML shows what was taken as math.
const mathIn = (source: string) => [...markdownToHtml(source).matchAll(/<span class="math [^"]*">([^<]*)<\/span>/g)].map((m) => m[1]);

describe('math delimiters', () => {
	it.each([
		['$E=mc^2$', '$E=mc^2$'],
		['\\(a^2 + b^2\\)', '\\(a^2 + b^2\\)'],
		['$$\\sum_i x_i$$', '$$\\sum_i x_i$$'],
		['\\[\\int_0^1 f\\]', '\\[\\int_0^1 f\\]'],
		['$a\\$b$', '$a\\$b$'],
		['$x$, then', '$x$']
	])('takes %s as math', (source, raw) => {
		expect(findInlineMath(source)?.raw).toBe(raw);
	});

	it('marks $$ and \\[ as display math, $ and \\( as inline', () => {
		expect(findInlineMath('$$x$$')).toMatchObject({ tex: 'x', display: true, open: '$$' });
		expect(findInlineMath('\\[x\\]')).toMatchObject({ tex: 'x', display: true, open: '\\[' });
		expect(findInlineMath('$x$')).toMatchObject({ tex: 'x', display: false, open: '$' });
		expect(findInlineMath('\\(x\\)')).toMatchObject({ tex: 'x', display: false, open: '\\(' });
	});

	it.each([
		'$5 and $6',
		'costs $5.',
		'$ 5 $',
		'$x $',
		'$x$5 and more',
		'$',
		'$$',
		'$ $',
		'$x `code` y$',
		'$x\n\ny$'
	])('leaves %s as prose', (source) => {
		expect(findInlineMath(source)).toBeNull();
	});

	it('finds math among prose dollars as a user would read it', () => {
		expect(mathIn('It costs $5 and $6, or $10.')).toEqual([]);
		expect(mathIn('Between $5-$6 a day.')).toEqual([]);
		expect(mathIn('Energy is $E=mc^2$, prices are $5 and $6.')).toEqual(['$E=mc^2$']);
		expect(mathIn('An escaped \\$x\\$ stays text.')).toEqual([]);
		expect(markdownToHtml('An escaped \\$x\\$ stays text.')).toContain('An escaped $x$ stays text.');
		expect(mathIn('Both \\(a\\) and $b$.')).toEqual(['\\(a\\)', '$b$']);
	});

	it('never takes inline code or code blocks as math', () => {
		expect(mathIn('Use `$x$` in the shell, and `$$` too.')).toEqual([]);
		expect(markdownToHtml('Use `$x$` here')).toContain('<code>$x$</code>');
		expect(mathIn('```tex\n$$x^2$$\n\\[y\\]\n```')).toEqual([]);
		expect(mathIn('    $$x^2$$\n')).toEqual([]);
		expect(mathIn('$a `b$` c$')).toEqual([]);
		expect(markdownToHtml('~~~\n$E=mc^2$\n~~~')).toContain('$E=mc^2$</code>');
	});

	it('reads a display block on lines of its own', () => {
		const block = findBlockMath('$$\n\\int_0^1 x\\,dx\n$$\nafter');
		expect(block).toMatchObject({ tex: '\\int_0^1 x\\,dx', display: true, raw: '$$\n\\int_0^1 x\\,dx\n$$\n' });
		expect(findBlockMath('\\[\na + b\n\\]')).toMatchObject({ tex: 'a + b', open: '\\[' });
		expect(markdownToHtml('Text\n$$\nx^2\n$$\nmore')).toMatch(/<p>Text<\/p>\n<div class="math-block">.*<\/div>\n<p>more<\/p>/s);
	});

	it('never runs a display block over a blank line or a code fence', () => {
		expect(findBlockMath('$$\nx\n\ny\n$$')).toBeNull();
		expect(findBlockMath('$$\nx\n```\ncode\n```\n$$')).toBeNull();
		expect(mathIn('$$\nx\n\n```\n$$\n```')).toEqual([]);
	});

	it('leaves a formula whose closing delimiter has not arrived as text (a streaming answer)', () => {
		for (const partial of ['The energy $E=mc^', '$$\n\\frac{a}{', '\\(a^2 +', 'So $x']) {
			expect(mathIn(partial)).toEqual([]);
		}
		expect(mathIn('The energy $E=mc^2$')).toEqual(['$E=mc^2$']);
	});

	it('keeps emphasis from pairing across a formula', () => {
		const html = markdownToHtml('*a* and $x*y$ and $p_1 + q_1$ *b*');
		expect(mathIn('*a* and $x*y$ and $p_1 + q_1$ *b*')).toEqual(['$x*y$', '$p_1 + q_1$']);
		expect(html).toContain('<em>a</em>');
		expect(html).toContain('<em>b</em>');
		expect(maskMath('a $x*y$ b').length).toBe('a $x*y$ b'.length);
		// The `*` inside the formula would otherwise close the emphasis and cut the formula in two.
		expect(mathIn('*a $x*y$ b*')).toEqual(['$x*y$']);
		expect(markdownToHtml('*a $x*y$ b*')).toContain('<em>a <span class="math');
		expect(mathIn('_see $a_1 + b_2$ too_')).toEqual(['$a_1 + b_2$']);
	});

	it('reads 1 MB of prose dollars in seconds', () => {
		const source = 'It costs $5 and $6 or $x and $ y. '.repeat(30_000);
		const started = performance.now();
		const html = markdownToHtml(source);
		expect(performance.now() - started).toBeLessThan(8000);
		expect(html).not.toContain('class="math');
	});
});
