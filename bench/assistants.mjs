// Assistants benchmark: the time from a click on "Assistants" in the sidebar to the Assistants page
// on screen with its first assistants (a screenful), and to every assistant listed, the first time
// it opens in a visit (its code loads then) and again after it, with 500 stored assistants (the
// most a profile keeps), each with a system prompt, settings and starter prompts.
// Prints figures; asserts nothing. Run: npx vite build && node bench/assistants.mjs
import { openAppPage, openBench, seedDatabase } from './browser.mjs';
import { size } from './quick.mjs';
import { headlineOpens, printOpens, timeOpens } from './saved-items-page.mjs';

const ASSISTANTS = size(500, 50);
const RUNS = size(7, 2);
const bench = await openBench();
let opens;

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
	opens = await timeOpens(bench, page, { name: 'Assistants', list: 'Saved assistants', count: ASSISTANTS, runs: RUNS });
	await context.close();
} finally {
	await bench.close();
}
printOpens('Assistants', 'assistants', ASSISTANTS, opens);
headlineOpens('Assistants', 'assistants', ASSISTANTS, opens);
