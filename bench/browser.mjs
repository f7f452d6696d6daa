// Shared set-up for benchmarks: the built app on a local port and Debian's Chromium.
import { chromium } from '@playwright/test';
import { existsSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { serve } from '../src/server/serve.mjs';

const CHROMIUM_ARGS = ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'];

function chromiumPath() {
	const executablePath = process.env.CHROME_PATH || '/usr/bin/chromium';
	if (!existsSync(executablePath)) throw new Error(`Chromium not found at ${executablePath}; install it or set CHROME_PATH.`);
	return executablePath;
}

/**
 * Serves `root` (the built app by default) and starts Chromium. `isolated`: cross-origin
 * isolated pages, whose performance.now() resolves 5 µs instead of 100 µs. `args`: more
 * Chromium flags.
 */
export async function openBench({ root = 'build', isolated = false, args = [] } = {}) {
	const executablePath = chromiumPath();
	if (root === 'build' && !existsSync('build/index.html')) throw new Error('Build the app first: npx vite build');
	const server = await serve({ root, port: 0, isolated });
	const browser = await chromium.launch({
		executablePath,
		args: [...CHROMIUM_ARGS, ...args]
	});
	return {
		url: server.url,
		browser,
		async close() {
			await browser.close();
			await server.close();
		}
	};
}

/**
 * Builds the benchmarks' own page (bench/harness), opens it in Chromium once `window.bench` is
 * there, runs `work(page, browser)`, and closes and removes everything after.
 * @template T
 * @param {(page: import('@playwright/test').Page, browser: import('@playwright/test').Browser) => Promise<T>} work
 * @returns {Promise<T>}
 */
export async function withHarnessPage(work) {
	const { buildBench } = await import('./build-bench.mjs');
	const built = await buildBench();
	try {
		const bench = await openBench({ root: built.browserDir });
		try {
			const page = await bench.browser.newPage();
			await page.goto(bench.url + '/');
			await page.waitForFunction(() => 'bench' in window);
			const result = await work(page, bench.browser);
			await page.close();
			return result;
		} finally {
			await bench.close();
		}
	} finally {
		await built.remove();
	}
}

/** A desktop-sized page of the app (no service worker), once its Message box is ready. */
export async function openAppPage(bench) {
	const context = await bench.browser.newContext({ serviceWorkers: 'block', viewport: { width: 1280, height: 800 } });
	const page = await context.newPage();
	await page.goto(bench.url + '/');
	await page.getByRole('textbox', { name: 'Message' }).waitFor();
	return { context, page };
}

/**
 * Serves the built app and opens Chromium with a browser profile on disk, as a user's is.
 * (`openBench`'s contexts keep IndexedDB in memory, where large writes cost a few times more
 * CPU than on disk.) `options` are Playwright's context options.
 */
export async function openDiskProfile(options = {}) {
	if (!existsSync('build/index.html')) throw new Error('Build the app first: npx vite build');
	const server = await serve({ root: 'build', port: 0 });
	const dir = await mkdtemp(join(tmpdir(), 'palimpsest-bench-profile-'));
	const context = await chromium.launchPersistentContext(dir, { executablePath: chromiumPath(), args: CHROMIUM_ARGS, ...options });
	return {
		url: server.url,
		context,
		async close() {
			await context.close();
			await server.close();
			await rm(dir, { recursive: true, force: true });
		}
	};
}

export function median(values) {
	const sorted = [...values].sort((a, b) => a - b);
	return sorted[Math.floor(sorted.length / 2)];
}

/**
 * Writes rows straight into the open page's profile database (the app must have created it at
 * schema version 4 or later), in one transaction: `{ sessions: [...], messages: [...], ... }`,
 * rows by store name. The app reads them after the next navigation.
 */
export async function seedDatabase(page, stores) {
	await page.evaluate(async (stores) => {
		const open = indexedDB.open('palimpsest-default');
		const db = await new Promise((resolve, reject) => {
			open.onsuccess = () => resolve(open.result);
			open.onerror = () => reject(open.error);
		});
		const tx = db.transaction(Object.keys(stores), 'readwrite');
		for (const [store, rows] of Object.entries(stores)) for (const row of rows) tx.objectStore(store).put(row);
		await new Promise((resolve, reject) => {
			tx.oncomplete = resolve;
			tx.onerror = () => reject(tx.error);
		});
		db.close();
	}, stores);
}
