// Attachment benchmark: a 12-megapixel photo (4000 × 3000 JPEG, generated in the page before the
// clock starts) readied for a provider through the attachment worker, as the app's Attach does
// before it stores the image: the time from the call to the scaled Blob back in the page, and
// the page's long tasks (over 50 ms) and longest gap between animation frames meanwhile (goal:
// no long task: decoding and scaling happen off the page's thread). Runs the attachment modules
// in the bench/attach-harness page (src/lib/attachments through attachment-client.ts).
// Then the full path in the built app: the photo pasted into the Message box and sent at once to
// a mock Anthropic server (the app reads, scales and stores the image, then builds the request):
// the time from the paste to the request reaching the server, and the page's long tasks from
// the paste to the answer on screen.
// Prints figures; asserts nothing. Run: npx vite build && node bench/attach.mjs
// (RUNS=n photos per provider, 5 by default)
import { startMockProvider } from '../tests/support/mock-provider.mjs';
import { buildAttachHarness } from './build-attach-harness.mjs';
import { median, openAppPage, openBench } from './browser.mjs';
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

// 2. The whole path in the built app, against a mock Anthropic server.
const mock = await startMockProvider();
try {
	const bench = await openBench();
	try {
		const { context, page } = await openAppPage(bench);
		await addAnthropic(page, mock.url);
		console.log(`\nThe same photo pasted into the app's Message box and sent at once to a mock Anthropic server, ${RUNS} run${RUNS === 1 ? '' : 's'} (goal: no long task on the page)`);
		results.app = await measureAppPath(page, mock);
		await context.close();
	} finally {
		await bench.close();
	}
} finally {
	await mock.close();
}

/** Adds the mock server as an Anthropic provider in Settings and chooses its model in the chat. */
async function addAnthropic(page, url) {
	await page.getByRole('link', { name: 'Settings' }).first().click();
	await page.getByRole('button', { name: 'Add provider' }).click();
	await page.getByRole('combobox', { name: 'Preset' }).selectOption({ label: 'Anthropic' });
	// A preset with a known address keeps Base URL under More options.
	await page.getByRole('dialog', { name: 'Add provider' }).getByRole('button', { name: 'More options' }).click();
	await page.getByRole('textbox', { name: 'Base URL' }).fill(url);
	await page.getByRole('textbox', { name: 'API key' }).fill('sk-bench');
	await page.getByRole('textbox', { name: 'Model', exact: true }).fill('claude-bench');
	await page.getByRole('button', { name: 'Save' }).click();
	await page.getByRole('status', { name: 'Provider status' }).filter({ hasText: 'Saved' }).waitFor();
	await page.getByRole('link', { name: 'Chat' }).first().click();
	const model = page.getByRole('combobox', { name: 'Model', exact: true });
	const option = await model.locator('option', { hasText: 'claude-bench' }).first().textContent();
	await model.selectOption({ label: option ?? '' });
}

async function measureAppPath(page, mock) {
	const runs = [];
	for (let run = 0; run < RUNS; run++) {
		const before = mock.requests.length;
		// The photo is made before the clock starts; the page then records long tasks from the paste on.
		await page.evaluate(async ({ width, height }) => {
			const canvas = new OffscreenCanvas(width, height);
			const context = canvas.getContext('2d');
			const gradient = context.createLinearGradient(0, 0, width, height);
			gradient.addColorStop(0, '#2a6');
			gradient.addColorStop(1, '#a26');
			context.fillStyle = gradient;
			context.fillRect(0, 0, width, height);
			for (let i = 0; i < 400; i++) {
				context.fillStyle = `hsl(${i * 37} 60% 50%)`;
				context.fillRect((i * 997) % width, (i * 613) % height, 120, 80);
			}
			const photo = await canvas.convertToBlob({ type: 'image/jpeg', quality: 0.92 });
			window.benchPhoto = new File([photo], 'photo.jpg', { type: 'image/jpeg' });
			window.benchTasks = [];
			new PerformanceObserver((list) => window.benchTasks.push(...list.getEntries().map((entry) => entry.duration))).observe({ type: 'longtask' });
		}, PHOTO);
		const box = page.getByRole('textbox', { name: 'Message' });
		const started = Date.now();
		const inputBytes = await box.evaluate((element) => {
			const data = new DataTransfer();
			data.items.add(window.benchPhoto);
			element.dispatchEvent(new ClipboardEvent('paste', { clipboardData: data, bubbles: true, cancelable: true }));
			return window.benchPhoto.size;
		});
		await box.fill(`What is in photo ${run + 1}?`);
		await box.press('Enter');
		while (mock.requests.length === before) await new Promise((resolve) => setTimeout(resolve, 5));
		const sent = Date.now() - started;
		await page.getByText(`Mock answer to: What is in photo ${run + 1}?`).first().waitFor();
		const image = mock.requests.at(-1).body.messages.at(-1).content.find((part) => part.type === 'image');
		const outputBytes = Math.floor((image.source.data.length * 3) / 4);
		runs.push({ ms: sent, inputBytes, outputBytes, longTasks: await page.evaluate(() => window.benchTasks) });
	}
	const tasks = runs.flatMap((run) => run.longTasks);
	console.log(`  ${kb(runs[0].inputBytes)} JPEG in → ${kb(runs[0].outputBytes)} sent`);
	console.log(`    paste to request at the server: median ${ms(median(runs.map((run) => run.ms)))} (runs: ${runs.map((run) => run.ms).join(', ')} ms)`);
	console.log(`    page from the paste to the answer: ${tasks.length} long task${tasks.length === 1 ? '' : 's'}${tasks.length ? ` (${tasks.map((t) => ms(t)).join(', ')})` : ''}`);
	return { ms: median(runs.map((run) => run.ms)), longTasks: tasks.length };
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
const { app, ...scaled } = results;
headline(
	`a 12-megapixel photo is scaled in ${Object.entries(scaled)
		.map(([provider, r]) => `${ms(r.ms)} (${provider})`)
		.join(', ')} (medians); pasted and sent in the app it reaches the provider in ${ms(app.ms)} (median); ${tasks} long task${tasks === 1 ? '' : 's'} on the page in all (goal: 0)`
);
