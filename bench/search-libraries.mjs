// Compares the full-text libraries considered for the message index, in Node, on the same
// generated messages (English, code, CJK): build time, prefix-query time and serialized size.
// Run once to choose; the libraries are installed only for it:
//   npm install --no-save minisearch@7.2.0 flexsearch@0.8.212 @orama/orama@3.1.18 && node bench/search-libraries.mjs
import { performance } from 'node:perf_hooks';

const N = Number(process.env.DOCS ?? 20000);
const WORDS = 'index query answer session model token search stream context profile worker browser storage message summary import export compaction provider plugin'.split(' ');
const CJK = '搜索索引会话消息模型上下文压缩存储浏览器插件検索履歴会話한국어검색';
function text(i) {
	let out = '';
	for (let w = 0; w < 60; w++) out += WORDS[(i * 7 + w * 13) % WORDS.length] + (w % 9 === 0 ? ` fn_${(i + w) % 997}() ` : ' ');
	if (i % 5 === 0) out += CJK.slice(i % 20, (i % 20) + 8);
	return out + ` rare${i}`;
}
const docs = Array.from({ length: N }, (_, i) => ({ id: `s${i >> 3}:${i & 7}`, text: text(i) }));
const bytes = docs.reduce((sum, doc) => sum + doc.text.length, 0);
const QUERIES = ['ind', 'search', 'compac', 'rare123', 'fn_42', '会话'];

async function time(label, build, query, serialize) {
	const t0 = performance.now();
	const index = await build();
	const buildMs = performance.now() - t0;
	const times = [];
	for (let round = 0; round < 5; round++) for (const q of QUERIES) {
		const t = performance.now();
		await query(index, q);
		times.push(performance.now() - t);
	}
	times.sort((a, b) => a - b);
	const size = serialize ? (await serialize(index)).length : NaN;
	console.log(`${label}: build ${buildMs.toFixed(0)} ms, query median ${times[times.length >> 1].toFixed(2)} ms p95 ${times[Math.floor(times.length * 0.95)].toFixed(2)} ms, serialized ${(size / bytes * 100).toFixed(0)}% of ${(bytes / 1e6).toFixed(1)} MB text`);
}

const { default: MiniSearch } = await import('minisearch');
await time('MiniSearch 7', () => { const ms = new MiniSearch({ fields: ['text'] }); ms.addAll(docs); return ms; },
	(ms, q) => ms.search(q, { prefix: true }).slice(0, 50), (ms) => JSON.stringify(ms));

const { Index } = await import('flexsearch');
await time('FlexSearch 0.8', () => { const ix = new Index({ tokenize: 'forward' }); docs.forEach((d, i) => ix.add(i, d.text)); return ix; },
	(ix, q) => ix.search(q, 50), async (ix) => { let out = ''; await ix.export((key, data) => { out += key + (data ?? ''); }); return out; });

const { create, insertMultiple, search, save } = await import('@orama/orama');
await time('Orama 3', async () => { const db = create({ schema: { id: 'string', text: 'string' } }); await insertMultiple(db, docs); return db; },
	(db, q) => search(db, { term: q, limit: 50 }), (db) => JSON.stringify(save(db)));
