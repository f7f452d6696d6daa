// Prompts benchmark: the time from a click on "Prompts" in the sidebar to the Prompts page on
// screen with its first prompts (a screenful), and to every prompt listed, the first time it opens
// in a visit (its code loads then) and again after it, with 1,000 stored prompts (the most a
// profile keeps); and the time from "/" typed in the Message box to a prompt in the slash menu
// (their names load then). Prints figures; asserts nothing. Run: npx vite build && node bench/prompts.mjs
import { median, openAppPage, openBench, seedDatabase } from './browser.mjs';
import { headline, size } from './quick.mjs';

const PROMPTS = size(1000, 50);
const RUNS = size(7, 2);
const GOAL_MS = 100;
const bench = await openBench();
/** Per open: ms from the click to the first prompts on screen, and to every prompt listed. */
const firstOpen = { first: [], all: [] };
const againOpen = { first: [], all: [] };
const menu = [];
const FIRST_ROWS = 20;

/** Clicks `link`; resolves to the ms until the page holds `first` elements matching `selector`, and until it holds `all`. */
async function timeClick(page, link, selector, first, all) {
	await page.evaluate(([selector, first, all]) => {
		const marks = (window.__marks = {});
		// From the click itself, as the page sees it (not from when the driver began to move the mouse).
		document.addEventListener('click', () => (marks.click = performance.now()), { capture: true, once: true });
		window.__shown = new Promise((resolve) => {
			const observer = new MutationObserver(() => {
				const count = document.querySelectorAll(selector).length;
				if (count >= first) marks.first ??= performance.now();
				if (count !== all) return;
				observer.disconnect();
				resolve({ first: marks.first - marks.click, all: performance.now() - marks.click });
			});
			observer.observe(document, { childList: true, subtree: true });
		});
	}, [selector, first, all]);
	await link.click();
	return page.evaluate(() => window.__shown);
}

try {
	const { context, page } = await openAppPage(bench);
	const now = Date.now();
	await seedDatabase(page, {
		prompts: Array.from({ length: PROMPTS }, (_, i) => ({ id: `p-${i}`, name: `prompt-${String(i).padStart(4, '0')}`, text: `Prompt ${i}: translate {{text}} into {{language}}. ${'Keep the tone. '.repeat(20)}`, created_at: now + i, updated_at: now + i }))
	});
	const rows = 'ul[aria-label="Saved prompts"] > li';
	for (let run = 0; run < RUNS; run++) {
		await page.goto(bench.url + '/');
		const box = page.getByRole('textbox', { name: 'Message' });
		await box.waitFor();
		const nav = page.getByRole('navigation', { name: 'Sessions' });
		const opened = await timeClick(page, nav.getByRole('link', { name: 'Prompts', exact: true }), rows, FIRST_ROWS, PROMPTS);
		firstOpen.first.push(opened.first);
		firstOpen.all.push(opened.all);
		await nav.getByRole('link', { name: 'Chat', exact: true }).click();
		await box.waitFor();
		const again = await timeClick(page, nav.getByRole('link', { name: 'Prompts', exact: true }), rows, FIRST_ROWS, PROMPTS);
		againOpen.first.push(again.first);
		againOpen.all.push(again.all);
		await nav.getByRole('link', { name: 'Chat', exact: true }).click();
		await box.waitFor();
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
	}
	await context.close();
} finally {
	await bench.close();
}
const ms = (values) => `${median(values).toFixed(0)} ms (runs: ${values.map((v) => v.toFixed(0)).join(', ')})`;
console.log(`Prompts page from the click on "Prompts", ${PROMPTS.toLocaleString('en')} prompts stored; the first time in a visit (its code loads then): its first ${FIRST_ROWS} prompts on screen ${ms(firstOpen.first)}, all listed ${ms(firstOpen.all)}`);
console.log(`  again: first ${FIRST_ROWS} ${ms(againOpen.first)}, all listed ${ms(againOpen.all)}`);
console.log(`A prompt in the slash menu, from the first key of "/prompt-0001": ${ms(menu)}`);
headline(`Prompts page on screen with its first prompts ${median(firstOpen.first).toFixed(0)} ms after the click the first time in a visit, ${median(againOpen.first).toFixed(0)} ms again (every one of ${PROMPTS.toLocaleString('en')} listed after ${median(firstOpen.all).toFixed(0)} ms) (goal < ${GOAL_MS} ms)`);
