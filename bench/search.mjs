// Search benchmark: 10,000 sessions with 100,000 messages of English, code and CJK text. Prints
// the full build of the index at start-up (and the main thread's long tasks meanwhile), a
// keystroke to first results in the worker and to the screen (median, p95), the stored index
// against the messages' size, and the time to index a new answer. Asserts nothing.
// Run: npx vite build && node bench/search.mjs [--profile] (--profile names what ran in each long
// task while the index builds; readable names after npx vite build --minify false)
import { median, openAppPage, openBench } from './browser.mjs';
import { observeLongTasks, startProfile, stopProfile, topFunctions } from './profile.mjs';
import { headline, size } from './quick.mjs';
import { seedSessions } from './seed-sessions.mjs';

const SESSIONS = size(10_000, 500);
const PROFILE = process.argv.includes('--profile');
const MESSAGES_PER_SESSION = 10;
const NEW_ANSWERS = size(30, 5);
const nav = 'nav[aria-label="Sessions"]';
const ENGLISH = 'the a of and to in is that it for on with as was be by this are or from at an which have not but what all were when we there can more if will one about would their so up out into some time could them see other than then now only its over also after use two how our work first well way even new want because any these give day most us river harbour garden letter engine budget travel recipe weather history planet orbit music guitar painting language grammar library museum island mountain forest desert ocean winter summer autumn spring market trade money bank credit loan invoice contract meeting schedule project deadline release feature bug patch server client browser database index query cache memory thread worker socket network packet router'.split(' ');
const CODE = 'const let function return async await import export class interface type extends implements new this null undefined true false if else for while switch case break continue try catch finally throw map filter reduce forEach push pop slice splice length console.log JSON.parse JSON.stringify fetch Promise.all useState useEffect parse_json fn impl struct enum match Option Result Vec String unwrap println def self lambda yield print range len dict list tuple SELECT FROM WHERE JOIN GROUP ORDER'.split(' ');
const CJK = '搜索 引擎 全文 索引 会话 消息 模型 上下文 压缩 存储 浏览器 插件 检索 历史 설정 검색 색인 대화 메시지 検索 履歴 会話 設定 言語 学習 東京 大阪 天気 料理'.split(' ');
const VOCABULARY = [...ENGLISH, ...ENGLISH, ...CODE, ...CJK, ...Array.from({ length: 3000 }, (_, i) => `term${i.toString(36)}`)];
/** Words typed a character at a time (each prefix is one keystroke). */
const QUERIES = size(['harbour', 'invoice', 'useEffect', 'term2x', '검색', 'forest gar', 'json', '搜索引擎'], ['harbour', '검색', 'term2x']);

const bench = await openBench();
/** A minimal comlink caller for a second copy of the search worker, driven from the page. */
function startWorker(url) {
	const worker = new Worker(url, { type: 'module' });
	let next = 0;
	window.__searchWorker = {
		worker,
		call: (name, ...args) =>
			new Promise((resolve, reject) => {
				const id = `bench-${++next}`;
				const onMessage = (event) => {
					if (event.data?.id !== id) return;
					worker.removeEventListener('message', onMessage);
					if (event.data.type === 'HANDLER') reject(new Error(JSON.stringify(event.data.value)));
					else resolve(event.data.value);
				};
				worker.addEventListener('message', onMessage);
				worker.postMessage({ id, type: 'APPLY', path: [name], argumentList: args.map((value) => ({ type: 'RAW', value })) });
			})
	};
}
const call = (page, name, ...args) => page.evaluate(({ name, args }) => window.__searchWorker.call(name, ...args), { name, args });
const pct = (values, p) => [...values].sort((a, b) => a - b)[Math.min(values.length - 1, Math.floor(values.length * p))];
const fmt = (values, digits = 1) => `median ${median(values).toFixed(digits)} ms, p95 ${pct(values, 0.95).toFixed(digits)} ms (${values.length} keystrokes)`;

let summary;
try {
	const { context, page } = await openAppPage(bench);
	const seeding = Date.now();
	const chars = await seedSessions(page, { count: SESSIONS, perSession: MESSAGES_PER_SESSION, idDigits: 5, vocabulary: VOCABULARY, wordsPerMessage: 40 });
	console.log(`Seeded ${SESSIONS.toLocaleString('en')} sessions with ${(SESSIONS * MESSAGES_PER_SESSION).toLocaleString('en')} messages (${(chars / 1e6).toFixed(1)} M characters) in ${((Date.now() - seeding) / 1000).toFixed(1)} s`);

	// 1. Start-up with no index: the app builds it in its worker; long tasks on the page meanwhile.
	await page.addInitScript(observeLongTasks);
	await page.reload();
	await page.locator(`${nav} li a`).first().waitFor();
	// From the first rows on (the app's own start-up is bench:sidebar's and bench:startup's).
	const profile = PROFILE ? await startProfile(page) : null;
	await page.waitForFunction(() => performance.getEntriesByName('palimpsest:search-index-ready').length > 0, null, { timeout: 600_000, polling: 200 });
	const built = await page.evaluate(() => ({ at: performance.getEntriesByName('palimpsest:search-index-ready')[0].startTime, tasks: window.__longTasks.slice() }));
	const samples = profile ? await stopProfile(profile) : null;
	const longest = Math.max(0, ...built.tasks.map((task) => task.duration));
	console.log(`Index built at start-up in the app's worker: ready ${(built.at / 1000).toFixed(1)} s after navigation; main-thread long tasks meanwhile: ${built.tasks.length}${built.tasks.length ? `, longest ${longest.toFixed(0)} ms` : ''}`);
	for (const task of built.tasks) {
		console.log(`  task at ${(task.start / 1000).toFixed(2)} s: ${task.duration.toFixed(0)} ms`);
		if (samples) for (const line of topFunctions(samples, task.start, task.start + task.duration)) console.log(`    ${line}`);
	}

	// 2. Keystroke to results on the screen: each prefix typed, to the next frame after the list changed.
	const box = page.getByRole('searchbox', { name: 'Search sessions' });
	await box.focus();
	// In the page: from each input event (a typed character) to the next frame after the list first changes.
	await page.evaluate((nav) => {
		window.__screen = [];
		const list = document.querySelector(nav);
		let started = null;
		document.addEventListener('input', () => (started = performance.now()), true);
		new MutationObserver(() => {
			if (started === null) return;
			const from = started;
			started = null;
			requestAnimationFrame(() => window.__screen.push(performance.now() - from));
		}).observe(list.querySelector('ul') ?? list, { childList: true, subtree: true, characterData: true });
	}, nav);
	let typed = 0;
	for (const query of QUERIES) {
		await box.fill('');
		await page.waitForFunction((nav) => !document.querySelector(`${nav} [aria-label="Matching message"]`), nav);
		for (const char of query) {
			await page.keyboard.insertText(char);
			typed++;
			// A keystroke that changes nothing on screen (the same results) counts as not measured.
			await page.waitForFunction((n) => window.__screen.length >= n, typed, { timeout: 2000 }).catch(() => typed--);
		}
	}
	const screen = await page.evaluate(() => window.__screen);
	await box.fill('');
	console.log(`Keystroke to first results on the screen: ${fmt(screen)} (goal < 100 ms)`);

	// 3. In the worker: a second copy of the search worker, driven directly.
	const url = await page.evaluate(() => performance.getEntriesByType('resource').map((e) => e.name).find((name) => name.includes('search.worker')));
	if (!url) throw new Error('The search worker did not load');
	await page.evaluate(startWorker, url);
	const settled = await call(page, 'settle', 'default', true);
	console.log(`Stored index: ${(settled.snapshotChars / 1e6).toFixed(1)} M characters for ${(chars / 1e6).toFixed(1)} M characters of messages (${((100 * settled.snapshotChars) / chars).toFixed(0)}%), ${settled.documents.toLocaleString('en')} documents`);
	const worker = [];
	const slowest = [];
	for (const query of QUERIES) {
		for (let end = 1; end <= query.length; end++) {
			const answer = await call(page, 'search', { profile: 'default', query: query.slice(0, end) });
			worker.push(answer.ms);
			slowest.push({ query: query.slice(0, end), ms: answer.ms, found: answer.ids.length });
		}
	}
	console.log(`Keystroke to first results in the worker: ${fmt(worker)} (goal < 50 ms)`);
	const slow = slowest.sort((a, b) => b.ms - a.ms).slice(0, 3);
	console.log(`  slowest: ${slow.map((s) => `"${s.query}" ${s.ms.toFixed(1)} ms (${s.found.toLocaleString('en')} sessions)`).join(', ')}`);

	// 4. A new answer, written as the app writes it: the worker indexes it from the commit.
	const perAnswer = [];
	for (let i = 0; i < NEW_ANSWERS; i++) {
		await page.evaluate(async (i) => {
			const db = await new Promise((resolve, reject) => {
				const open = indexedDB.open('palimpsest-default');
				open.onsuccess = () => resolve(open.result);
				open.onerror = () => reject(open.error);
			});
			const tx = db.transaction(['messages'], 'readwrite');
			const content = `A fresh answer number ${i} about harbour invoices and 検索 with parse_json(x) `.repeat(20);
			tx.objectStore('messages').put({ session_id: 'bench-00000', seq: 1000 + i, id: `new-${i}`, role: 'assistant', content, status: 'complete', kind: 'message', active: 1, compacted_by: null, created_at: Date.now() });
			await new Promise((resolve) => (tx.oncomplete = resolve));
			db.close();
		}, i);
		await page.waitForFunction((i) => window.__searchWorker.call('search', { profile: 'default', query: `number ${i} about` }).then((a) => a.ids.includes('bench-00000')), i, { polling: 20 });
		perAnswer.push((await call(page, 'status', 'default')).lastUpdateMs);
	}
	// A worker's clock is coarse (0.1 ms without cross-origin isolation): 0 means under that.
	const answerMs = (value) => (value > 0 ? `${value.toFixed(2)} ms` : 'under 0.1 ms');
	console.log(`Time to index a new ~1.6 KB answer: median ${answerMs(median(perAnswer))}, p95 ${answerMs(pct(perAnswer, 0.95))} (${perAnswer.length} answers; goal < 5 ms)`);

	// 5. A full build from nothing, in the worker (the stored index removed).
	await call(page, 'close');
	await page.evaluate(() => window.__searchWorker.worker.terminate());
	await page.evaluate(async () => {
		const db = await new Promise((resolve) => (indexedDB.open('palimpsest-default').onsuccess = (e) => resolve(e.target.result)));
		const tx = db.transaction(['search_index'], 'readwrite');
		tx.objectStore('search_index').clear();
		await new Promise((resolve) => (tx.oncomplete = resolve));
		db.close();
	});
	await page.evaluate(startWorker, url);
	const rebuilt = await call(page, 'settle', 'default');
	console.log(`Full build of the index in the worker: ${(rebuilt.lastCatchUp.ms / 1000).toFixed(1)} s for ${rebuilt.lastCatchUp.sessions.toLocaleString('en')} sessions (${rebuilt.documents.toLocaleString('en')} documents)`);
	summary = `search over ${(SESSIONS * MESSAGES_PER_SESSION).toLocaleString('en')} messages: keystroke to results in the worker median ${median(worker).toFixed(1)} ms, p95 ${pct(worker, 0.95).toFixed(0)} ms (goal < 50 ms), to the screen median ${median(screen).toFixed(0)} ms, p95 ${pct(screen, 0.95).toFixed(0)} ms (goal < 100 ms); new answer indexed in ${answerMs(median(perAnswer))} (goal < 5 ms); long tasks while building: ${built.tasks.length} (goal 0)`;
	await context.close();
} finally {
	await bench.close();
}
headline(summary);
