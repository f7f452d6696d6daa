// How fast a page of saved items (Prompts, Assistants) opens from its link in the sidebar: until
// its first rows are on screen and until every one is listed, the first time it opens in a visit
// (its code loads then) and again after it. Used by bench/prompts.mjs and bench/assistants.mjs.
import { median } from './browser.mjs';
import { headline } from './quick.mjs';

/** The rows a screen shows at first. */
export const FIRST_ROWS = 20;
const GOAL_MS = 100;

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

/**
 * Opens the page `name` (its list labelled `list`, `count` rows) `runs` times: each run loads
 * the chat, opens the page, goes back to the chat and opens it again; then `afterRun`, if given,
 * runs back in the chat with its Message box. Resolves to the ms of the first opens and of the
 * second ones, each until the first rows and until all.
 */
export async function timeOpens(bench, page, { name, list, count, runs, afterRun }) {
	const firstOpen = { first: [], all: [] };
	const againOpen = { first: [], all: [] };
	const rows = `ul[aria-label="${list}"] > li`;
	for (let run = 0; run < runs; run++) {
		await page.goto(bench.url + '/');
		const box = page.getByRole('textbox', { name: 'Message' });
		await box.waitFor();
		const nav = page.getByRole('navigation', { name: 'Sessions' });
		const link = nav.getByRole('link', { name, exact: true });
		const toChat = async () => {
			await nav.getByRole('link', { name: 'Chat', exact: true }).click();
			await box.waitFor();
		};
		const opened = await timeClick(page, link, rows, FIRST_ROWS, count);
		firstOpen.first.push(opened.first);
		firstOpen.all.push(opened.all);
		await toChat();
		const again = await timeClick(page, link, rows, FIRST_ROWS, count);
		againOpen.first.push(again.first);
		againOpen.all.push(again.all);
		if (!afterRun) continue;
		await toChat();
		await afterRun(box);
	}
	return { firstOpen, againOpen };
}

/** A figure of the runs: their median and each of them. */
export const ms = (values) => `${median(values).toFixed(0)} ms (runs: ${values.map((v) => v.toFixed(0)).join(', ')})`;

/** Prints what `timeOpens` measured of the page `name`, listing `count` `noun` (a plural). */
export function printOpens(name, noun, count, { firstOpen, againOpen }) {
	console.log(`${name} page from the click on "${name}", ${count.toLocaleString('en')} ${noun} stored; the first time in a visit (its code loads then): its first ${FIRST_ROWS} ${noun} on screen ${ms(firstOpen.first)}, all listed ${ms(firstOpen.all)}`);
	console.log(`  again: first ${FIRST_ROWS} ${ms(againOpen.first)}, all listed ${ms(againOpen.all)}`);
}

/** The headline of the page `name`'s figures. */
export function headlineOpens(name, noun, count, { firstOpen, againOpen }) {
	headline(`${name} page on screen with its first ${noun} ${median(firstOpen.first).toFixed(0)} ms after the click the first time in a visit, ${median(againOpen.first).toFixed(0)} ms again (every one of ${count.toLocaleString('en')} listed after ${median(firstOpen.all).toFixed(0)} ms) (goal < ${GOAL_MS} ms)`);
}
