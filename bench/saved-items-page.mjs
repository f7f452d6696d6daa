// How fast a page of saved items (Prompts, Assistants) opens from its link in the sidebar: until
// its first rows are on screen (the frame that draws them painted) and until every one is in its list,
// the first time it opens in a visit and again after it. A first open is timed three ways, each in
// a visit of its own: clicked a moment after the app is ready (as a user's first click comes),
// the pointer going to the link and clicking at once; clicked the moment the Message box is
// ready (nothing had time to load ahead of it); and at that moment with the pointer resting on
// the link before the click, as a real mouse does. Used by bench/prompts.mjs and bench/assistants.mjs.
import { median } from './browser.mjs';
import { headline } from './quick.mjs';

/** The rows a screen shows at first. */
export const FIRST_ROWS = 20;
const GOAL_MS = 100;
/** How long after the Message box is ready a visit's first click comes: a user reads the screen and moves the pointer first. */
export const SETTLE_MS = 1000;
/** How long the pointer rests on the link before the click, where it does: a quick hand's time from arriving to pressing. */
export const REST_MS = 100;

/**
 * Clicks `link` (after `rest` ms over it, if given); resolves to the ms until the page shows
 * `first` elements matching `selector` on screen (the frame that draws them painted, as Element
 * Timing reports the first one's text), and until it holds `all` of them.
 */
async function timeClick(page, link, selector, first, all, rest = 0) {
	await page.evaluate(([selector, first, all]) => {
		const marks = (window.__marks = {});
		// From the click itself, as the page sees it (not from when the driver began to move the mouse).
		document.addEventListener('click', () => (marks.click = performance.now()), { capture: true, once: true });
		const painted = new Promise((resolve) => {
			const observer = new PerformanceObserver((list) => {
				const entry = list.getEntries().find((e) => e.identifier === 'bench-first-rows');
				if (!entry) return;
				observer.disconnect();
				resolve(entry.renderTime);
			});
			observer.observe({ type: 'element' });
		});
		window.__shown = new Promise((resolve) => {
			let marked = false;
			const observer = new MutationObserver(() => {
				const rows = document.querySelectorAll(selector);
				if (rows.length >= first && !marked) {
					marked = true;
					// Timed by the paint of the first row's text, drawn with the others (before the frame paints them).
					const texts = document.createTreeWalker(rows[0], NodeFilter.SHOW_TEXT, { acceptNode: (node) => (node.textContent.trim() ? NodeFilter.FILTER_ACCEPT : NodeFilter.FILTER_SKIP) });
					texts.nextNode()?.parentElement?.setAttribute('elementtiming', 'bench-first-rows');
				}
				if (rows.length !== all) return;
				observer.disconnect();
				const allAt = performance.now();
				void painted.then((firstAt) => resolve({ first: firstAt - marks.click, all: allAt - marks.click }));
			});
			observer.observe(document, { childList: true, subtree: true });
		});
	}, [selector, first, all]);
	if (rest) {
		await link.hover();
		await page.waitForTimeout(rest);
	}
	await link.click();
	return page.evaluate(() => window.__shown);
}

/**
 * Opens the page `name` (its list labelled `list`, `count` rows) in `runs` rounds of three
 * visits: the first clicks its link SETTLE_MS after the Message box is ready, goes back to the
 * chat and opens it again (then `afterRun`, if given, runs back in the chat with its Message
 * box); the second clicks the moment the Message box is ready; the third rests the pointer on
 * the link REST_MS first. Resolves to the ms of each kind of open, until the first rows and until all.
 */
export async function timeOpens(bench, page, { name, list, count, runs, afterRun }) {
	const opens = { firstOpen: { first: [], all: [] }, againOpen: { first: [], all: [] }, atOnce: { first: [], all: [] }, resting: { first: [], all: [] } };
	const rows = `ul[aria-label="${list}"] > li`;
	const visit = async () => {
		await page.goto(bench.url + '/');
		const box = page.getByRole('textbox', { name: 'Message' });
		await box.waitFor();
		const nav = page.getByRole('navigation', { name: 'Sessions' });
		return { box, nav, link: nav.getByRole('link', { name, exact: true }) };
	};
	const note = (kind, opened) => {
		opens[kind].first.push(opened.first);
		opens[kind].all.push(opened.all);
	};
	for (let run = 0; run < runs; run++) {
		const { box, nav, link } = await visit();
		const toChat = async () => {
			await nav.getByRole('link', { name: 'Chat', exact: true }).click();
			await box.waitFor();
		};
		await page.waitForTimeout(SETTLE_MS);
		note('firstOpen', await timeClick(page, link, rows, FIRST_ROWS, count));
		await toChat();
		note('againOpen', await timeClick(page, link, rows, FIRST_ROWS, count));
		if (afterRun) {
			await toChat();
			await afterRun(box);
		}
		note('atOnce', await timeClick(page, (await visit()).link, rows, FIRST_ROWS, count));
		note('resting', await timeClick(page, (await visit()).link, rows, FIRST_ROWS, count, REST_MS));
	}
	return opens;
}

/** A figure of the runs: their median and each of them. */
export const ms = (values) => `${median(values).toFixed(0)} ms (runs: ${values.map((v) => v.toFixed(0)).join(', ')})`;

/** Prints what `timeOpens` measured of the page `name`, listing `count` `noun` (a plural). */
export function printOpens(name, noun, count, { firstOpen, againOpen, atOnce, resting }) {
	const figures = (open) => `its first ${FIRST_ROWS} ${noun} on screen ${ms(open.first)}, all in its list ${ms(open.all)}`;
	console.log(`${name} page from the click on "${name}", ${count.toLocaleString('en')} ${noun} stored (on screen: the frame that draws them painted; in its list: in the page, scrolled to or not).`);
	console.log(`  The first time in a visit, clicked ${SETTLE_MS} ms after the Message box is ready, the pointer not resting on the link: ${figures(firstOpen)}`);
	console.log(`  again in that visit: ${figures(againOpen)}`);
	console.log(`  The first time, clicked the moment the Message box is ready, the pointer not resting on the link: ${figures(atOnce)}`);
	console.log(`  The first time, at that moment with the pointer resting ${REST_MS} ms on the link before the click: ${figures(resting)}`);
}

/** The headline of the page `name`'s figures. */
export function headlineOpens(name, noun, count, { firstOpen, againOpen, atOnce, resting }) {
	const m = (open) => median(open.first).toFixed(0);
	headline(
		`${name} page on screen with its first ${noun} ${m(firstOpen)} ms after the click the first time in a visit (${SETTLE_MS} ms after the Message box is ready, no pause over the link), ${m(againOpen)} ms again; clicked the moment the Message box is ready ${m(atOnce)} ms, ${m(resting)} ms with the pointer resting ${REST_MS} ms on the link (every one of ${count.toLocaleString('en')} in its list after ${median(firstOpen.all).toFixed(0)} ms) (goal < ${GOAL_MS} ms)`
	);
}
