// Shared set-up for benchmarks: the built app on a local port and Debian's Chromium.
import { chromium } from '@playwright/test';
import { existsSync } from 'node:fs';
import { serve } from '../src/server/serve.mjs';

/**
 * Serves `root` (the built app by default) and starts Chromium. `isolated`: cross-origin
 * isolated pages, whose performance.now() resolves 5 µs instead of 100 µs.
 */
export async function openBench({ root = 'build', isolated = false } = {}) {
	const executablePath = process.env.CHROME_PATH || '/usr/bin/chromium';
	if (!existsSync(executablePath)) throw new Error(`Chromium not found at ${executablePath}; install it or set CHROME_PATH.`);
	if (root === 'build' && !existsSync('build/index.html')) throw new Error('Build the app first: npx vite build');
	const server = await serve({ root, port: 0, isolated });
	const browser = await chromium.launch({
		executablePath,
		args: ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync']
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

export function median(values) {
	const sorted = [...values].sort((a, b) => a - b);
	return sorted[Math.floor(sorted.length / 2)];
}

/**
 * Writes rows straight into the open page's profile database (the app must have created it at
 * schema version 4 or later), in one transaction. The app reads them after the next navigation.
 */
export async function seedDatabase(page, { sessions, messages }) {
	await page.evaluate(async ({ sessions, messages }) => {
		const open = indexedDB.open('palimpsest-default');
		const db = await new Promise((resolve, reject) => {
			open.onsuccess = () => resolve(open.result);
			open.onerror = () => reject(open.error);
		});
		const tx = db.transaction(['sessions', 'messages'], 'readwrite');
		for (const session of sessions) tx.objectStore('sessions').put(session);
		for (const message of messages) tx.objectStore('messages').put(message);
		await new Promise((resolve, reject) => {
			tx.oncomplete = resolve;
			tx.onerror = () => reject(tx.error);
		});
		db.close();
	}, { sessions, messages });
}
