// A model that answers every request with "context too long" cannot make the app compact in a
// loop: a turn compacts, asks again once, then stops and says why (and the turn's summaries are
// bounded at two whatever the path); the next turn does the same, and nothing is lost.
import { expect, test } from './test-base';
import type { RecordedRequest } from '../support/mock-provider.mjs';
import { assistantMessages, openApp, sendAndWait, transcript, userMessages } from './helpers';
import { addProvider, chooseModel, expectCompactions, OFFLINE_LABEL } from './provider-helpers';
import { useMockProvider } from './test-servers';

const mock = useMockProvider();

const answers = (): RecordedRequest[] => mock.requests.filter((r) => r.path === '/v1/chat/completions');
const tooLong = { type: 'http_error', status: 400, body: { error: { message: 'The prompt is too long for this model.', type: 'invalid_request_error', code: 'context_length_exceeded' } } } as const;

test('a model that always says "context too long" gets one compaction and one retry a turn, then the turn stops and says why', async ({ page }) => {
	await openApp(page);
	const label = await addProvider(page, 'Custom (OpenAI-compatible)', `${mock.url}/v1`, 'always-full');
	// Summaries are written here, by the offline model, so every request the mock sees is an answer.
	await page.getByRole('combobox', { name: 'Compaction model' }).selectOption({ label: OFFLINE_LABEL });
	await chooseModel(page, label);
	const words = (n: number, seed: string) => Array.from({ length: n }, (_, i) => `${seed}${i % 89}`).join(' ');
	for (const seed of ['harbour', 'lantern', 'orchard', 'meadow']) await sendAndWait(page, words(250, seed));

	mock.script(Array.from({ length: 20 }, () => tooLong));
	for (const [turn, text] of ['Summarise what we covered', 'And once more, briefly'].entries()) {
		const before = answers().length;
		await page.getByRole('textbox', { name: 'Message' }).fill(text);
		await page.getByRole('textbox', { name: 'Message' }).press('Enter');
		// This turn's own failed answer, not the one the turn before ended with.
		const stopped = assistantMessages(page).filter({ hasText: 'It was compacted once already: start a new session, or choose a model with a larger context window.' });
		await expect(stopped).toHaveCount(turn + 1, { timeout: 30_000 });
		await expect(stopped.last()).toContainText('too long');
		await expect(page.getByRole('button', { name: 'Stop' })).toHaveCount(0);
		// The refused request and its one retry after the compaction, no more.
		await expect.poll(() => answers().length - before).toBe(2);
		await expect(userMessages(page).filter({ hasText: text })).toHaveCount(1);
	}

	// One compaction a turn, each announced once.
	await expect(transcript(page).getByRole('region', { name: 'Context compacted' }).first()).toBeVisible();
	await expectCompactions(page, ['summarize/overflow', 'summarize/overflow']);
});
