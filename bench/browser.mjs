// Shared set-up for benchmarks: the built app on a local port and Debian's Chromium.
import { chromium } from '@playwright/test';
import { existsSync } from 'node:fs';
import { serve } from '../src/server/serve.mjs';

export async function openBench() {
	const executablePath = process.env.CHROME_PATH || '/usr/bin/chromium';
	if (!existsSync(executablePath)) throw new Error(`Chromium not found at ${executablePath}; install it or set CHROME_PATH.`);
	if (!existsSync('build/index.html')) throw new Error('Build the app first: npx vite build');
	const server = await serve({ root: 'build', port: 0 });
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
