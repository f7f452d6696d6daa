import { it } from 'vitest';
import { appendFileSync } from 'node:fs';
import { markdownToHtml } from './markdown-to-html';
const M = 1_000_000;
const rep = (s: string) => s.repeat(Math.ceil(M / s.length));
const cases: Record<string,string> = {
  stars: rep('*a'), unders: rep('_a'), tildea: rep('~a'), st: rep('**a'), ust: rep('__a '), mixed: rep('*_~a'), starsp: rep('* a'),
  backticks: rep('`a'), quotes: '>'.repeat(10000) + ' x', lists: '- '.repeat(5000)+'x', nestedlist: Array.from({length:2000},(_, i)=>' '.repeat(i*2)+'- x').join('\n'),
  angle: rep('<'), lt_a: rep('<a '), excl: rep('!['), paren: rep('[a](('), brackets: rep('['), links: rep('[a]('), closeb: rep(']('),
  table: '|a|b|\n|-|-|\n' + rep('|x|y|\n'), emstar: rep('**')+'a', at: rep('a@'), email: rep('a.b@c.d '), dots: rep('a.'),
  imgs: rep('![a](http://x.y/z.png)'), nested: '['.repeat(50000)+']'.repeat(50000), urls: rep('http://a.b/'), urlsp: rep('http://a.b/ '), www: rep('www.'),
  reflinks: '[a]: http://x\n\n' + rep('[a]'), codeblocks: rep('```js\nlet a = 1;\n```\n'), backslash: rep('\\'), bsstar: rep('\\*a'),
  emph_para: rep('*a '.repeat(2000) + '\n\n'), prose: rep('Some *text* with `code`, **bold** and [a link](https://e.com) plus _under_ ~~del~~.\n\n'),
  lines: rep('a  \n'), entity: rep('&amp;'), htmlc: rep('<!--'), autolinks: rep('<http://a>'), spaces: rep(' ') + 'x', tabs: rep('\t') + 'x', hashes: rep('#'),
  headings: rep('# *a\n'), setext: rep('a\n=\n'), fence_open: '```\n' + rep('x\n'), indented: rep('    x\n'), ol: rep('1. a\n'), task: rep('- [ ] a\n'),
};
for (const [k, s] of Object.entries(cases)) it(k, () => { const t = performance.now(); let out=''; try { out = markdownToHtml(s).slice(0,50).replace(/\n/g,' '); } catch (e) { out = 'ERR ' + String(e).slice(0,80); } appendFileSync('/tmp/probe.log', `R ${k} ${s.length} ${Math.round(performance.now()-t)} ${out}\n`); }, 600000);
