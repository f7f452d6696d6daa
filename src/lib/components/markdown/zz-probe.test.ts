import { it } from 'vitest';
import { appendFileSync } from 'node:fs';
import { markdownToHtml } from './markdown-to-html';
const cases: Record<string,string> = {
  brackets: '['.repeat(100000), links: '[a]('.repeat(50000), stars: '*a'.repeat(500000), unders: '_a'.repeat(500000), tildea: '~a'.repeat(500000),
  st: '**a'.repeat(300000), ust: '__a '.repeat(200000),  mixed: '*_~a'.repeat(250000),
  backticks: '`a'.repeat(500000), quotes: '>'.repeat(10000) + ' x', lists: '- '.repeat(5000)+'x', nestedlist: Array.from({length:2000},(_, i)=>' '.repeat(i*2)+'- x').join('\n'),
  angle: '<'.repeat(500000), lt_a: '<a '.repeat(300000), excl: '![' .repeat(300000), paren: '[a](('.repeat(200000),
  table: '|a|b|\n|-|-|\n' + '|x|y|\n'.repeat(150000), emstar: '**'.repeat(500000)+'a',
  imgs: '![a](http://x.y/z.png)'.repeat(40000), nested: '['.repeat(50000)+']'.repeat(50000), 
  reflinks: '[a]: http://x\n\n' + '[a]'.repeat(300000), codeblocks: '```js\nlet a = 1;\n```\n'.repeat(50000), backslash: '\\'.repeat(1000000),
  emph_para: ('*a '.repeat(2000) + '\n\n').repeat(160),
};
for (const [k, s] of Object.entries(cases)) it(k, () => { const t = performance.now(); let out=''; try { out = markdownToHtml(s).slice(0,60).replace(/\n/g,' '); } catch (e) { out = 'ERR ' + String(e).slice(0,80); } appendFileSync('/tmp/probe.log', `R ${k} ${s.length} ${Math.round(performance.now()-t)} ${out}\n`); }, 120000);
