// The in-browser model (llama.cpp in WebAssembly) in a real Chromium: a tiny GGUF written by
// tests/support/tiny-gguf.mjs is picked through the real file input, copied into the Origin
// Private File System, and chatted with; Stop, a reload and Remove behave as a user expects.
import { expect, test, type Page } from './test-base';
import { mkdir, writeFile } from 'node:fs/promises';
import { shardNames, TINY_WORDS, tinyGguf } from '../support/tiny-gguf.mjs';
import { assistantMessages, expectNetworkOff, messageBody, messageText, openApp, sendAndWait, sendMessage, textChangesWithin, transcript, waitForAnswer, waitForServiceWorkerControl } from './helpers';
import { navigate } from './plugin-helpers';
import { serve } from '../../src/server/serve.mjs';

const LABEL = 'In-browser model (llama.cpp)';

// The engine is 10 MB of WebAssembly compiled in each test's fresh browser context, and the
// model runs on the CPU the other test's browser shares: these tests get longer than most.
test.describe.configure({ timeout: 150_000 });

/** Writes the tiny model (or its shards) into the test's output folder; returns the paths. */
async function modelFiles(dir: string, options: { template?: boolean; split?: number; base?: string; ends?: boolean } = {}): Promise<string[]> {
	const files = tinyGguf(options);
	await mkdir(dir, { recursive: true });
	const names = shardNames(`${dir}/${options.base ?? 'tiny'}`, files.length);
	await Promise.all(files.map((bytes, i) => writeFile(names[i], bytes)));
	return names;
}

async function addLocalModel(page: Page, paths: string[]): Promise<void> {
	await page.goto('/settings');
	await page.getByRole('button', { name: 'Add provider' }).click();
	await page.getByRole('combobox', { name: 'Preset' }).selectOption({ label: LABEL });
	// Through the browser's own file chooser, as a user picks the file.
	const chooser = page.waitForEvent('filechooser');
	await page.getByLabel('GGUF file').click();
	await (await chooser).setFiles(paths);
	await page.getByRole('button', { name: 'Save' }).click();
}

/** What this site keeps in the Origin Private File System, file by file. */
function storedFiles(page: Page): Promise<string[]> {
	return page.evaluate(async () => {
		const names: string[] = [];
		const walk = async (dir: FileSystemDirectoryHandle, path: string) => {
			for await (const [name, handle] of dir.entries()) {
				if (handle.kind === 'directory') await walk(handle as FileSystemDirectoryHandle, `${path}${name}/`);
				else names.push(`${path}${name}`);
			}
		};
		await walk(await navigator.storage.getDirectory(), '');
		return names;
	});
}

test('a picked GGUF is kept in the browser, answers with streamed tokens, stops on Stop, survives a reload, and Remove frees it', async ({ page }, testInfo) => {
	const paths = await modelFiles(testInfo.outputDir);
	await openApp(page);
	await addLocalModel(page, paths);
	const status = page.getByRole('status', { name: 'Provider status' });
	await expect(status).toContainText('Saved tiny.gguf', { timeout: 60_000 });
	await expect(status).toContainText('8,192 tokens of context, its own chat template');
	await expect(page.getByLabel('Model storage')).toContainText(/\d+ KB in this browser · [\d.]+ [GM]B left/);
	await expect.poll(() => storedFiles(page)).toEqual([expect.stringMatching(/^local-models\/[\w-]+\/tiny\.gguf$/)]);

	await page.getByRole('link', { name: 'Chat' }).click();
	// Adding a model does not change the default: a new chat still starts on the offline model.
	const model = page.getByRole('combobox', { name: 'Model', exact: true });
	await expect(model.locator('option:checked')).toHaveText('offline-mini · Offline model (built-in)');
	await model.selectOption({ label: `tiny.gguf · ${LABEL}` });
	await sendMessage(page, 'Tell me about rivers');
	// The answer streams: text shows while it is still being written. The tiny model never says
	// it is done, so its answer ends at the output budget (819 tokens), with the model's speed.
	const answer = assistantMessages(page).last();
	await expect(answer).toHaveAttribute('data-status', 'streaming');
	await expect(answer).toContainText(/\w+ \w+ \w+/);
	await waitForAnswer(page, 'incomplete', 60_000);
	await expect(answer).toContainText("reached the model's output limit");
	await expect.poll(async () => (await messageText(answer)).trim().split(/\s+/).length).toBeGreaterThan(700);
	await expect(answer.getByLabel('Generation speed')).toHaveText(/^[\d,.]+ tokens\/s$/);

	// Stop ends the answer at once and keeps what was written.
	await sendMessage(page, 'Again, at length');
	await expect(assistantMessages(page)).toHaveCount(2);
	const stopped = assistantMessages(page).last();
	await expect(stopped).toContainText(/\w+ \w+/);
	await page.getByRole('button', { name: 'Stop' }).click();
	await expect(stopped).toHaveAttribute('data-status', 'aborted', { timeout: 2_000 });
	await expect(stopped).toContainText('Stopped');
	const kept = await messageText(stopped);
	expect(kept.trim().split(/\s+/).length).toBeLessThan(700);
	// Nothing more arrives after Stop.
	expect(await textChangesWithin(messageBody(stopped), 500)).toEqual([]);

	// After a reload the model is still there, and answers; each answer keeps its speed.
	await page.reload();
	await expect(page.getByRole('textbox', { name: 'Message' })).toBeVisible();
	await expect(assistantMessages(page).first().getByLabel('Generation speed')).toHaveText(/^[\d,.]+ tokens\/s$/);
	await sendMessage(page, 'Still there?');
	await expect(assistantMessages(page)).toHaveCount(3);
	// The model loads again first (in the worker), and the answer says so until its first words.
	await expect(assistantMessages(page).last()).toContainText('Loading the model…');
	await expect(assistantMessages(page).last()).toContainText(/\w+ \w+ \w+/, { timeout: 60_000 });
	await page.getByRole('button', { name: 'Stop' }).click();
	await expect(assistantMessages(page).last()).toHaveAttribute('data-status', 'aborted');

	// Remove deletes the provider and its file.
	// The file system's share of the site's storage (Chromium breaks it down): the database
	// keeps changing meanwhile, the model's file only leaves.
	const fileSystemUsage = () =>
		page.evaluate(async () => {
			const estimate = (await navigator.storage.estimate()) as StorageEstimate & { usageDetails?: Record<string, number> };
			return estimate.usageDetails?.fileSystem ?? estimate.usage ?? 0;
		});
	const usedBefore = await fileSystemUsage();
	await page.goto('/settings');
	await page.getByRole('button', { name: `Remove ${LABEL} tiny.gguf` }).click();
	await page.getByRole('dialog').getByRole('button', { name: 'Remove' }).click();
	await expect(page.getByLabel('Model storage')).toHaveCount(0);
	await expect.poll(() => storedFiles(page)).toEqual([]);
	await expect.poll(async () => usedBefore - (await fileSystemUsage())).toBeGreaterThan(400_000);
});

test('a split model and a model without a chat template load and answer; a file that is not GGUF is refused and nothing is kept', async ({ page }, testInfo) => {
	const status = page.getByRole('status', { name: 'Provider status' });
	await openApp(page);

	const notModel = `${testInfo.outputDir}/notes.gguf`;
	await mkdir(testInfo.outputDir, { recursive: true });
	await writeFile(notModel, 'These are notes, not a model. '.repeat(10));
	await addLocalModel(page, [notModel]);
	await expect(status).toContainText('not a GGUF model');
	await expect.poll(() => storedFiles(page)).toEqual([]);

	// One shard alone is not enough; both together are.
	const shards = await modelFiles(testInfo.outputDir, { split: 2, base: 'split' });
	await page.getByLabel('GGUF file').setInputFiles(shards.slice(1));
	await page.getByRole('button', { name: 'Save' }).click();
	await expect(status).toContainText('split in 2 files; choose all of them together (missing: shard 1)');
	await page.getByLabel('GGUF file').setInputFiles(shards);
	await page.getByRole('button', { name: 'Save' }).click();
	await expect(status).toContainText('Saved split.gguf', { timeout: 60_000 });

	const plain = await modelFiles(testInfo.outputDir, { template: false, base: 'plain' });
	await addLocalModel(page, plain);
	await expect(status).toContainText(/Saved plain\.gguf: \d+ KB, 8,192 tokens of context, no chat template of its own, so a plain User\/Assistant transcript is used/, { timeout: 60_000 });
	await expect(page.getByLabel('Model storage').last()).toContainText('no chat template in the model: plain User/Assistant fallback');
	await expect.poll(async () => (await storedFiles(page)).map((path) => path.replace(/^local-models\/[\w-]+\//, '')).sort()).toEqual(['plain.gguf', 'split-00001-of-00002.gguf', 'split-00002-of-00002.gguf']);

	for (const model of ['split.gguf', 'plain.gguf']) {
		await navigate(page, 'Chat');
		await page.getByRole('button', { name: 'New session' }).click();
		await page.getByRole('combobox', { name: 'Model', exact: true }).selectOption({ label: `${model} · ${LABEL}` });
		await sendMessage(page, `Hello ${model}`);
		await waitForAnswer(page, 'incomplete', 60_000);
		await expect.poll(() => messageText(assistantMessages(page).last())).toMatch(/\w+ \w+ \w+/);
	}
});

test('the in-browser model writes compaction summaries from Settings → Compaction model, with progress and Cancel', async ({ page }, testInfo) => {
	const status = page.getByRole('status', { name: 'Provider status' });
	await openApp(page);
	// One model that never says it is done (its summary is still being written when Cancel is
	// pressed), one that ends after a few words, as a real model does.
	await addLocalModel(page, await modelFiles(testInfo.outputDir, { base: 'endless' }));
	await expect(status).toContainText('Saved endless.gguf', { timeout: 60_000 });
	await addLocalModel(page, await modelFiles(testInfo.outputDir, { base: 'brief', ends: true }));
	await expect(status).toContainText('Saved brief.gguf', { timeout: 60_000 });
	const compactionModel = page.getByRole('combobox', { name: 'Compaction model' });
	await compactionModel.selectOption({ label: `endless.gguf · ${LABEL}` });
	// A small window for the chat's own (offline) model, so the older exchanges leave the kept tail.
	await page.getByRole('combobox', { name: 'Model name' }).fill('offline-mini');
	await page.getByRole('spinbutton', { name: 'Context window (tokens)' }).fill('4000');
	await page.getByRole('button', { name: 'Set window' }).click();

	await navigate(page, 'Chat');
	await sendAndWait(page, 'long 400 about lighthouses');
	await sendAndWait(page, 'long 400 about tides');
	await sendAndWait(page, 'long 400 about harbours');
	const meter = page.getByRole('status', { name: 'Context usage' });
	await page.getByRole('button', { name: 'Compact now' }).click();
	await expect(meter).toContainText(/Compacting.*: writing the summary, [\d,]+ characters/, { timeout: 60_000 });
	await page.getByRole('button', { name: 'Cancel' }).click();
	await expect(meter).not.toContainText('Compacting');
	await expect(transcript(page).getByRole('region', { name: 'Context compacted' })).toHaveCount(0);

	await navigate(page, 'Settings');
	await compactionModel.selectOption({ label: `brief.gguf · ${LABEL}` });
	await navigate(page, 'Chat');
	await page.getByRole('button', { name: 'Compact now' }).click();
	const marker = transcript(page).getByRole('region', { name: 'Context compacted' });
	await expect(marker).toHaveCount(1, { timeout: 60_000 });
	await expect(page.getByRole('status', { name: 'Compaction result' })).toContainText('Context compacted from');
	// The summary is the tiny model's own words, not the offline model's extractive recap.
	await expect(marker).toContainText('summary · you asked for it');
	await marker.getByText('Summary the model sees instead').click();
	const summary = marker.locator('details').filter({ hasText: 'Summary the model sees instead' });
	await expect(summary).toContainText(new RegExp(`\\b(${TINY_WORDS.join('|')})\\b`));
	await expect(summary).not.toContainText('lighthouses');
});

/** Whether the service worker's cache holds llama.cpp's WebAssembly engine. */
function cachedEngine(page: Page): Promise<boolean> {
	return page.evaluate(async () => {
		for (const key of await caches.keys()) {
			for (const request of await (await caches.open(key)).keys()) if (/\/wllama-[\w-]+\.wasm$/.test(request.url)) return true;
		}
		return false;
	});
}

test.describe('with the service worker', () => {
	// Offline use needs the service worker, which the other tests keep out of the way.
	test.use({ serviceWorkers: 'allow' });

	test('with the network off, a reload still chats with the in-browser model', async ({ page, context }, testInfo) => {
		await openApp(page);
		await waitForServiceWorkerControl(page);
		// The 10 MB engine is not part of the app's first download...
		await expect.poll(() => cachedEngine(page)).toBe(false);
		// ...so with the network off before it ever came, adding a model says why it cannot, and keeps nothing.
		const paths = await modelFiles(testInfo.outputDir);
		await context.setOffline(true);
		await expectNetworkOff(page);
		await addLocalModel(page, paths);
		await expect(page.getByRole('status', { name: 'Provider status' })).toContainText('engine (llama.cpp, about 3 MB to download) is not in this browser yet, and the network cannot be reached');
		await expect.poll(() => storedFiles(page)).toEqual([]);
		await context.setOffline(false);
		await addLocalModel(page, paths);
		await expect(page.getByRole('status', { name: 'Provider status' })).toContainText('Saved tiny.gguf', { timeout: 60_000 });
		// ...the service worker keeps it once a model has been added.
		await expect.poll(() => cachedEngine(page)).toBe(true);
		await context.setOffline(true);
		await expectNetworkOff(page);

		await page.reload();
		await expect(page.getByRole('heading', { level: 1, name: 'Settings' })).toBeVisible();
		await navigate(page, 'Chat');
		await page.getByRole('combobox', { name: 'Model', exact: true }).selectOption({ label: `tiny.gguf · ${LABEL}` });
		await sendMessage(page, 'Hello with no network');
		await waitForAnswer(page, 'incomplete', 60_000);
		await expect.poll(() => messageText(assistantMessages(page).last())).toMatch(/\w+ \w+ \w+/);
	});
});

test('served cross-origin isolated with the app\'s security headers, a model whose threads cannot start runs on one thread', async ({ browser }, testInfo) => {
	// npm start does not isolate the page (see the README); a server that does makes the engine
	// try threads, which its worker's Trusted Types refuse. The model must still load.
	const server = await serve({ root: 'build', port: 0, secure: true, isolated: true });
	const context = await browser.newContext({ baseURL: server.url });
	try {
		const page = await context.newPage();
		// Four cores, so the app asks for two threads.
		await (await context.newCDPSession(page)).send('Emulation.setHardwareConcurrencyOverride', { hardwareConcurrency: 4 });
		const warnings: string[] = [];
		page.on('console', (message) => message.type() === 'warning' && warnings.push(message.text()));
		await page.goto('/');
		await expect.poll(() => page.evaluate(() => crossOriginIsolated)).toBe(true);
		await addLocalModel(page, await modelFiles(testInfo.outputDir));
		await expect(page.getByRole('status', { name: 'Provider status' })).toContainText(/Saved tiny\.gguf: .* on 1 thread\./, { timeout: 60_000 });
		await expect.poll(() => warnings.join('\n')).toContain('could not start its threads; it runs on one');
	} finally {
		await context.close();
		await server.close();
	}
});
