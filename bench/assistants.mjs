// Assistants benchmark: the time from a click on "Assistants" in the sidebar to the Assistants page
// on screen with its first assistants (a screenful), and to every assistant listed, the first time
// it opens in a visit (its code loads then) and again after it, with 500 stored assistants (the
// most a profile keeps), each with a system prompt, settings and starter prompts.
// Prints figures; asserts nothing. Run: npx vite build && node bench/assistants.mjs
import { median, openAppPage, openBench, seedDatabase } from './browser.mjs';
import { headline, size } from './quick.mjs';

const ASSISTANTS = size(500, 50);
const RUNS = size(7, 2);
const GOAL_MS = 100;
const FIRST_ROWS = 20;
const bench = await openBench();
/** Per open: ms from the click to the first assistants on screen, and to every assistant listed. */
const firstOpen = { first: [], all: [] };
const againOpen = { first: [], all: [] };

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
		assistants: Array.from({ length: ASSISTANTS }, (_, i) => ({
			id: `a-${i}`,
			name: `Assistant ${String(i).padStart(3, '0')}`,
			provider: '',
			model: '',
			chat_settings: { system_prompt: `You are assistant ${i}. ${'Answer with care and cite your sources. '.repeat(20)}`, temperature: 0.3, max_tokens: 1000 },
			starters: ['Summarise this', 'Explain it simply', 'What are the risks?'],
			created_at: now + i,
			updated_at: now + i
		}))
	});
	const rows = 'ul[aria-label="Saved assistants"] > li';
	for (let run = 0; run < RUNS; run++) {
		await page.goto(bench.url + '/');
		const box = page.getByRole('textbox', { name: 'Message' });
		await box.waitFor();
		const nav = page.getByRole('navigation', { name: 'Sessions' });
		const opened = await timeClick(page, nav.getByRole('link', { name: 'Assistants', exact: true }), rows, FIRST_ROWS, ASSISTANTS);
		firstOpen.first.push(opened.first);
		firstOpen.all.push(opened.all);
		await nav.getByRole('link', { name: 'Chat', exact: true }).click();
		await box.waitFor();
		const again = await timeClick(page, nav.getByRole('link', { name: 'Assistants', exact: true }), rows, FIRST_ROWS, ASSISTANTS);
		againOpen.first.push(again.first);
		againOpen.all.push(again.all);
	}
	await context.close();
} finally {
	await bench.close();
}
const ms = (values) => `${median(values).toFixed(0)} ms (runs: ${values.map((v) => v.toFixed(0)).join(', ')})`;
console.log(`Assistants page from the click on "Assistants", ${ASSISTANTS.toLocaleString('en')} assistants stored; the first time in a visit (its code loads then): its first ${FIRST_ROWS} assistants on screen ${ms(firstOpen.first)}, all listed ${ms(firstOpen.all)}`);
console.log(`  again: first ${FIRST_ROWS} ${ms(againOpen.first)}, all listed ${ms(againOpen.all)}`);
headline(`Assistants page on screen with its first assistants ${median(firstOpen.first).toFixed(0)} ms after the click the first time in a visit, ${median(againOpen.first).toFixed(0)} ms again (every one of ${ASSISTANTS.toLocaleString('en')} listed after ${median(firstOpen.all).toFixed(0)} ms) (goal < ${GOAL_MS} ms)`);
