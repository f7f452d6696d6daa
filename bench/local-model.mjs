// The in-browser model (llama.cpp in WebAssembly) with the tiny test model that
// tests/support/tiny-gguf.mjs writes: time to first token and tokens per second single- and
// multi-threaded (through the app's own engine handle, in a cross-origin isolated page, the only
// kind where threads can share memory), then in the built app driven like a user: main-thread
// long tasks while the model answers (goal: none) and the memory the page holds.
// Prints figures; asserts nothing. Run: npx vite build && node bench/local-model.mjs [--runs N] [--profile]
// (BENCH_QUICK=1: one run of 64-token answers per thread count.)
// (--profile: Chromium's sampling profiler runs while the app answers, and each long task is
// followed by the functions that used its time.)
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { buildBench } from './build-bench.mjs';
import { openBench } from './browser.mjs';
import { int, machine, ms } from './print.mjs';
import { tinyGguf } from '../tests/support/tiny-gguf.mjs';
import { observeLongTasks, startProfile, stopProfile, topFunctions } from './profile.mjs';
import { headline, size } from './quick.mjs';
import { availableParallelism } from 'node:os';

const RUNS = Number(process.argv[process.argv.indexOf('--runs') + 1]) || size(5, 1);
const MAX_TOKENS = size(400, 64);
const PROFILE = process.argv.includes('--profile');
const MB = 2 ** 20;

/** Resident memory of the browser's renderer processes (the page, its workers, wasm), from /proc. */
async function rendererMemory(browser) {
	const cdp = await browser.newBrowserCDPSession();
	const { processInfo } = await cdp.send('SystemInfo.getProcessInfo');
	await cdp.detach();
	let bytes = 0;
	for (const { type, id } of processInfo) {
		if (type !== 'renderer') continue;
		const status = await readFile(`/proc/${id}/status`, 'utf8').catch(() => '');
		bytes += Number(/VmRSS:\s+(\d+) kB/.exec(status)?.[1] ?? 0) * 1024;
	}
	return bytes;
}

/** What the page's own memory measurement says (page, workers, WebAssembly memory), in bytes. */
const pageMemory = (page) => page.evaluate(async () => (await performance.measureUserAgentSpecificMemory()).bytes);

console.log(machine());
const [model] = tinyGguf();
const dir = await mkdtemp(join(tmpdir(), 'palimpsest-local-model-'));
const modelPath = join(dir, 'tiny.gguf');
await writeFile(modelPath, model);
console.log(`Tiny test model: ${int(model.length)} bytes (llama architecture, 2 layers, 64 dimensions, 328 tokens); answers of ${MAX_TOKENS} tokens, ${RUNS} runs each`);

const built = await buildBench();
let summary;
try {
	// 1. Speed, single- against multi-threaded.
	await writeFile(join(built.browserDir, 'tiny.gguf'), model);
	const harness = await openBench({ root: built.browserDir, isolated: true });
	const speeds = [];
	try {
		const page = await harness.browser.newPage();
		await page.goto(harness.url + '/index.html');
		await page.waitForFunction(() => window.bench);
		const isolated = await page.evaluate(() => crossOriginIsolated);
		console.log(`\nSpeed through the app's engine handle (page cross-origin isolated: ${isolated})`);
		for (const threads of [1, 2]) {
			const run = await page.evaluate(([t, r, m]) => window.bench.localModel('/tiny.gguf', t, r, m), [threads, RUNS, MAX_TOKENS]);
			speeds.push(run);
			console.log(`  ${threads} thread${threads === 1 ? '' : 's'} (${run.multiThread ? 'multi-threaded build path' : 'single-threaded'}): load ${ms(run.loadMs)}, first token ${ms(run.firstTokenMs)}, ${run.streamedPerSecond.toFixed(0)} tokens/s streamed to the page, ${run.modelPerSecond.toFixed(0)} tokens/s as the model measured it`);
		}
		const [single, multi] = speeds;
		console.log(`  multi-threaded / single-threaded: ${(multi.modelPerSecond / single.modelPerSecond).toFixed(2)}× (on ${machine().match(/\d+ cores/)?.[0] ?? 'this machine'}, shared with other work)`);
	} finally {
		await harness.close();
	}

	// 2. The built app, as a user drives it.
	const app = await openBench({ isolated: true, args: ['--enable-blink-features=ForceEagerMeasureMemory'] });
	try {
		const context = await app.browser.newContext({ serviceWorkers: 'block' });
		await context.addInitScript(observeLongTasks);
		const page = await context.newPage();
		await page.goto(app.url + '/settings');
		await page.getByRole('button', { name: 'Add provider' }).waitFor();
		const before = { page: await pageMemory(page), rss: await rendererMemory(app.browser) };
		await page.getByRole('button', { name: 'Add provider' }).click();
		await page.getByRole('combobox', { name: 'Preset' }).selectOption({ label: 'In-browser model (llama.cpp)' });
		await page.getByLabel('GGUF file').setInputFiles(modelPath);
		const adding = await page.evaluate(() => performance.now());
		await page.getByRole('button', { name: 'Save' }).click();
		await page.getByRole('status', { name: 'Provider status' }).filter({ hasText: 'Saved' }).waitFor({ timeout: 60_000 });
		const added = await page.evaluate(() => performance.now());
		await page.getByRole('link', { name: 'Chat' }).click();
		await page.getByRole('combobox', { name: 'Model', exact: true }).selectOption({ label: 'tiny.gguf · In-browser model (llama.cpp)' });
		const box = page.getByRole('textbox', { name: 'Message' });
		const answers = page.getByRole('log', { name: 'Transcript' }).getByRole('article', { name: 'Assistant' });
		// The first message also creates the session (a new row, the address changes); the
		// second is an answer in an open session, the model's work alone.
		const ask = async (text, count) => {
			await box.fill(text);
			const from = await page.evaluate(() => performance.now());
			await box.press('Enter');
			await answers.nth(count - 1).locator('[aria-label="Generation speed"]').waitFor({ timeout: 120_000 });
			return { from, to: await page.evaluate(() => performance.now()) };
		};
		const first = await ask('Tell me about rivers', 1);
		const profile = PROFILE ? await startProfile(page) : null;
		const { from: sending, to: answered } = await ask('And about lakes?', 2);
		const answer = answers.nth(1);
		const speed = await answer.locator('[aria-label="Generation speed"]').textContent();
		const after = { page: await pageMemory(page), rss: await rendererMemory(app.browser) };
		const tasks = await page.evaluate(() => window.__longTasks);
		const samples = profile ? await stopProfile(profile) : null;
		const during = (from, to) => tasks.filter((task) => task.start >= from && task.start < to);
		const generation = during(sending, answered);
		const setup = during(adding, added);
		const opening = during(first.from, first.to);
		const cores = availableParallelism();
		console.log(`\nThe built app (cross-origin isolated, so the page can measure its memory; on ${cores} cores it generates on ${Math.max(1, Math.floor(cores / 2))} thread${cores < 4 ? '' : 's'}: half the cores)`);
		console.log(`  adding the model (copy into storage, load): ${ms(added - adding)}, ${setup.length} long task${setup.length === 1 ? '' : 's'}${setup.length ? ` (longest ${ms(Math.max(...setup.map((t) => t.duration)))})` : ''}`);
		console.log(`  the first message (creates the session, then the answer): ${ms(first.to - first.from)}, ${opening.length} long task${opening.length === 1 ? '' : 's'}${opening.length ? ` (longest ${ms(Math.max(...opening.map((t) => t.duration)))})` : ''}`);
		console.log(`  the next answer, ${int((await answer.textContent()).split(/\s+/).length)} words streamed into the transcript: ${ms(answered - sending)} at ${speed}; long tasks on the main thread: ${generation.length}${generation.length ? ` (longest ${ms(Math.max(...generation.map((t) => t.duration)))})` : ''} (goal: 0)`);
		for (const task of samples ? generation : []) {
			console.log(`    task at +${ms(task.start - sending)}: ${ms(task.duration)}`);
			for (const line of topFunctions(samples, task.start, task.start + task.duration)) console.log(`      ${line}`);
		}
		console.log(`  memory the page holds (its own measurement, workers and WebAssembly included): ${(before.page / MB).toFixed(1)} MB before adding the model, ${(after.page / MB).toFixed(1)} MB after the answer`);
		console.log(`  resident memory of the renderer processes: ${(before.rss / MB).toFixed(0)} MB before, ${(after.rss / MB).toFixed(0)} MB after`);
		summary = `tiny test model ${speeds[0].modelPerSecond.toFixed(0)} tokens/s on 1 thread (first token ${ms(speeds[0].firstTokenMs)}), ${speeds[1].modelPerSecond.toFixed(0)} tokens/s on 2; ${generation.length} main-thread long tasks while it answered in the app (goal: 0); page memory +${((after.page - before.page) / MB).toFixed(0)} MB`;
		await context.close();
	} finally {
		await app.close();
	}
} finally {
	await built.remove();
	await rm(dir, { recursive: true, force: true });
}
console.log('');
headline(summary);
