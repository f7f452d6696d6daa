// Makes the README's screenshots from the built app (npx vite build first): a desktop window
// (1366×850) and a phone (390×844, touch), each with a few sessions and an answer with a code
// block from the built-in offline model, so no key and no network are needed.
//   node scripts/screenshots.mjs        writes docs/screenshot.png and docs/screenshot-phone.png
import { chromium } from '@playwright/test';
import { existsSync } from 'node:fs';
import { serve } from '../src/server/serve.mjs';
import { findChromium, probeMachine } from '../tests/support/chromium.mjs';

const SIZES = [
	{ file: 'docs/screenshot.png', viewport: { width: 1366, height: 850 }, touch: false },
	{ file: 'docs/screenshot-phone.png', viewport: { width: 390, height: 844 }, touch: true }
];
const EARLIER = ['Plan a weekend in Lisbon', 'What makes sourdough rise?'];
const SHOWN = 'Show me an example function for the Fibonacci numbers';

if (!existsSync('build/index.html')) throw new Error('Build the app first: npx vite build');
const executablePath = findChromium(probeMachine());
if (!executablePath) throw new Error('Chromium was not found: install it, or set CHROME_PATH.');

const server = await serve({ root: 'build', port: 0 });
const browser = await chromium.launch({ executablePath, args: ['--no-sandbox', '--disable-gpu', '--no-first-run', '--disable-background-networking'] });
try {
	for (const size of SIZES) {
		const context = await browser.newContext({ viewport: size.viewport, hasTouch: size.touch, isMobile: size.touch, deviceScaleFactor: 1, colorScheme: 'light' });
		const page = await context.newPage();
		const errors = [];
		page.on('pageerror', (error) => errors.push(error));
		await page.goto(server.url);
		const box = page.getByRole('textbox', { name: 'Message' });
		for (const text of [...EARLIER, SHOWN]) {
			if (text !== EARLIER[0]) await page.goto(server.url);
			await box.fill(text);
			await box.press('Enter');
			await page.getByRole('log', { name: 'Transcript' }).getByRole('article', { name: 'Assistant' }).last().and(page.locator('[data-status="complete"]')).waitFor();
		}
		// Wait for the highlighted code: the screenshot shows the finished answer.
		await page.locator('.markdown pre code [class*="hljs-"]').first().waitFor();
		await box.blur();
		if (errors.length) throw new Error(`The page failed: ${errors.join('; ')}`);
		await page.screenshot({ path: size.file });
		console.log(`${size.file}: ${size.viewport.width}×${size.viewport.height}`);
		await context.close();
	}
} finally {
	await browser.close();
	await server.close();
}
