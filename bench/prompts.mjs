// Prompts benchmark: the time from a click on "Prompts" in the sidebar to the Prompts page on
// screen with its first prompts (a screenful), and to every prompt listed, the first time it opens
// in a visit (its code loads then) and again after it, with 1,000 stored prompts (the most a
// profile keeps); and the time from "/" typed in the Message box to a prompt in the slash menu
// (their names load then). Prints figures; asserts nothing. Run: npx vite build && node bench/prompts.mjs
import { openAppPage, openBench, seedDatabase } from './browser.mjs';
import { size } from './quick.mjs';
import { headlineOpens, ms, printOpens, timeOpens } from './saved-items-page.mjs';

const PROMPTS = size(1000, 50);
const RUNS = size(7, 2);
const bench = await openBench();
const menu = [];
let opens;

try {
	const { context, page } = await openAppPage(bench);
	const now = Date.now();
	await seedDatabase(page, {
		prompts: Array.from({ length: PROMPTS }, (_, i) => ({ id: `p-${i}`, name: `prompt-${String(i).padStart(4, '0')}`, text: `Prompt ${i}: translate {{text}} into {{language}}. ${'Keep the tone. '.repeat(20)}`, created_at: now + i, updated_at: now + i }))
	});
	// After each run, back in the chat: from the first key of a prompt's name to it in the slash menu.
	const afterRun = async (box) => {
		await page.evaluate(() => {
			window.__menu = new Promise((resolve) => {
				const observer = new MutationObserver(() => {
					if (document.querySelector('#command-menu [role="option"] .kind')) {
						observer.disconnect();
						resolve(performance.now());
					}
				});
				observer.observe(document, { childList: true, subtree: true });
			});
		});
		await box.focus();
		await page.evaluate(() => {
			window.__typed = new Promise((resolve) => document.addEventListener('keydown', () => resolve(performance.now()), { capture: true, once: true }));
		});
		await page.keyboard.type('/prompt-0001');
		menu.push(await page.evaluate(async () => (await window.__menu) - (await window.__typed)));
	};
	opens = await timeOpens(bench, page, { name: 'Prompts', list: 'Saved prompts', count: PROMPTS, runs: RUNS, afterRun });
	await context.close();
} finally {
	await bench.close();
}
printOpens('Prompts', 'prompts', PROMPTS, opens);
console.log(`A prompt in the slash menu, from the first key of "/prompt-0001": ${ms(menu)}`);
headlineOpens('Prompts', 'prompts', PROMPTS, opens);
