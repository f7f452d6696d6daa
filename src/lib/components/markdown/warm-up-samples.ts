// Small documents the renderer draws once in idle time after it loads. The first message a
// session shows otherwise pays for compiling marked's rules, DOMPurify's first document and each
// highlight.js grammar it meets (tens of milliseconds on a slow machine, in one long task).
import { HIGHLIGHTED_LANGUAGES } from './highlight-code';

const PROSE = [
	'# Heading\n\n### Smaller heading',
	'Setext heading\n---\n\nAnother one\n===',
	'A paragraph with **bold**, *emphasis*, ***both***, ~~struck~~ and `code`, a [link](https://example.com "title") and a ![picture](https://example.com/a.png). ' +
		'Could it drift? See https://example.com/docs/limits, www.example.org or mail ann@example.com about src/lib/db/rows.ts and config/app.yaml, 40 ms &amp; 3 < 4.  \nA hard break, an escaped \\* star and <b>inline html</b>.',
	'今日は新しいデータベースの設計について話し合いました。我们需要完成这个项目。데이터베이스를 업데이트하세요.',
	'> A quote\n> - with a list\n>\n> > and a nested quote',
	'1. First\n2. Second\n   - [x] done\n   - [ ] open\n\n* starred\n+ plussed',
	'| a | b |\n|---|:-:|\n| 1 | **2** |',
	'<div>\nraw html block\n</div>',
	'***',
	'```\nplain code\n```\n\n    indented code'
].join('\n\n');

/**
 * One document of most block and inline kinds, then one code block per highlighted language;
 * each twice, because the engine compiles a regular expression to machine code on its second
 * run (the first is interpreted), and that compiling is part of what a first use costs.
 */
export function warmUpSamples(): string[] {
	const samples = [PROSE, ...HIGHLIGHTED_LANGUAGES.map((language) => `\`\`\`${language}\nx = f("a", 1) // b\n\`\`\``)];
	return [...samples, ...samples];
}
