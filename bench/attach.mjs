// Attachment benchmark: a 12-megapixel photo (4000 × 3000 JPEG, generated in the page before the
// clock starts) readied for a provider through the attachment worker, as the app's Attach does
// before it stores the image: the time from the call to the scaled Blob back in the page, and
// the page's long tasks (over 50 ms) and longest gap between animation frames meanwhile (goal:
// no long task: decoding and scaling happen off the page's thread). Runs the attachment modules
// in the bench/attach-harness page (src/lib/attachments through attachment-client.ts).
// The full path (Attach in the built app, the image stored, the request reaching a mock provider)
// is a second part to add beside measureModulePath, driving the app as bench/tools.mjs does.
// Prints figures; asserts nothing. Run: npx vite build && node bench/attach.mjs
// (RUNS=n photos per provider, 5 by default)
import { buildAttachHarness } from './build-attach-harness.mjs';
import { median, openBench } from './browser.mjs';
import { int, machine, ms } from './print.mjs';
import { headline, size } from './quick.mjs';

const RUNS = Number(process.env.RUNS ?? size(5, 1));
const PHOTO = { width: 4000, height: 3000 };
const PROVIDERS = { anthropic: 'Anthropic (long edge 1568, 1.15 megapixels, 5 MB)', openai: 'OpenAI (2048 × 2048, then short side 768, 20 MB)' };

const kb = (bytes) => `${int(bytes / 1024)} KB`;

console.log(machine());
const built = await buildAttachHarness();
/** Per provider: the runs' figures. */
const results = {};
try {
	const bench = await openBench({ root: built.dir });
	try {
		const page = await bench.browser.newPage();
		await page.goto(bench.url + '/');
		await page.waitForFunction(() => 'attach' in window);
		console.log(`\nA ${PHOTO.width} × ${PHOTO.height} photo (JPEG) readied in the attachment worker, Chromium ${bench.browser.version()}, ${RUNS} run${RUNS === 1 ? '' : 's'} per provider (the first starts the worker) (goal: no long task on the page)`);
		for (const [provider, label] of Object.entries(PROVIDERS)) results[provider] = await measureModulePath(page, provider, label);
		await page.close();
	} finally {
		await bench.close();
	}
} finally {
	await built.remove();
}

async function measureModulePath(page, provider, label) {
	const runs = [];
	for (let run = 0; run < RUNS; run++) runs.push(await page.evaluate((spec) => window.attach.measure(spec), { ...PHOTO, provider }));
	const first = runs[0];
	const tasks = runs.flatMap((run) => run.longTasks);
	console.log(`  ${label}: ${first.width} × ${first.height} ${first.mimeType}, ${kb(first.inputBytes)} → ${kb(first.outputBytes)}`);
	console.log(`    time to the scaled Blob: median ${ms(median(runs.map((run) => run.ms)))} (runs: ${runs.map((run) => run.ms.toFixed(0)).join(', ')} ms)`);
	console.log(`    page meanwhile: ${tasks.length} long task${tasks.length === 1 ? '' : 's'}${tasks.length ? ` (${tasks.map((t) => ms(t)).join(', ')})` : ''}; longest gap between frames ${ms(Math.max(...runs.map((run) => run.maxFrameGap)))}, ${int(median(runs.map((run) => run.frames)))} frames a run (median)`);
	return { ms: median(runs.map((run) => run.ms)), longTasks: tasks.length };
}

const tasks = Object.values(results).reduce((sum, r) => sum + r.longTasks, 0);
headline(
	`a 12-megapixel photo is scaled in ${Object.entries(results)
		.map(([provider, r]) => `${ms(r.ms)} (${provider})`)
		.join(', ')} (medians) with ${tasks} long task${tasks === 1 ? '' : 's'} on the page (goal: 0)`
);
