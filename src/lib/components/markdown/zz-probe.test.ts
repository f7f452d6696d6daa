import { it } from 'vitest';
import { appendFileSync } from 'node:fs';
import { markdownToHtml } from './markdown-to-html';
const rep = (s: string, M: number) => s.repeat(Math.ceil(M / s.length));
const cases: Record<string,string> = {
  imgs250: rep('![a](http://x.y/z.png)', 250000), imgs500: rep('![a](http://x.y/z.png)', 500000),
  lnk250: rep('[a](http://x.y/z.png)', 250000), lnk500: rep('[a](http://x.y/z.png)', 500000),
  imgsp500: rep('![a](http://x.y/z.png) ', 500000), imgnl500: rep('![a](http://x.y/z.png)\n', 500000),
  nest500: Array.from({length:700},(_, i)=>' '.repeat(i*2)+'- x').join('\n'), nest1m: Array.from({length:1000},(_, i)=>' '.repeat(i*2)+'- x').join('\n'),
  quote1m: Array.from({length:1000},(_, i)=>'>'.repeat(i)+' x').join('\n'),
  quotes_flat: rep('> x\n', 1000000),
};
for (const [k, s] of Object.entries(cases)) it(k, () => { const t = performance.now(); let out=''; try { out = markdownToHtml(s).slice(0,50).replace(/\n/g,' '); } catch (e) { out = 'ERR ' + String(e).slice(0,80); } appendFileSync('/tmp/probe.log', `R ${k} ${s.length} ${Math.round(performance.now()-t)} ${out}\n`); }, 600000);
