// The providers' own compaction in the built app, against the mock speaking the real wire
// protocols: each path fires post_compaction once with its kind and reason, the provider's
// items go back verbatim on the next request, a model change summarises them locally first,
// and an overflow the provider's stated limit wins is compacted, retried once, and answered.
import { expect, test, type Locator, type Page } from './test-base';
import type { RecordedRequest } from '../support/mock-provider.mjs';
import { assistantMessages, openApp, sendAndWait, transcript } from './helpers';
import { addPlugin, navigate, rowStatus } from './plugin-helpers';
import { addProvider, chooseModel, expectCompactions, OFFLINE_LABEL, useNativeCompaction } from './provider-helpers';
import { useMockProvider, usePluginOrigins } from './test-servers';

const origins = usePluginOrigins();
const mock = useMockProvider();

const answers = (path: string): RecordedRequest[] => mock.requests.filter((r) => r.path === path && !r.body?.compaction);
const marker = (page: Page) => transcript(page).getByRole('region', { name: 'Context compacted' });

/**
 * Sends `text` as a user does when the provider compacts while answering it: the earlier
 * messages leave the transcript meanwhile, so the answer is found by its text, not by counting.
 */
async function sendWhileCompacting(page: Page, text: string, answer = `Mock answer to: ${text}`): Promise<Locator> {
	const box = page.getByRole('textbox', { name: 'Message' });
	await box.fill(text);
	await box.press('Enter');
	const reply = assistantMessages(page).filter({ hasText: answer });
	await expect(reply).toHaveAttribute('data-status', 'complete');
	await expect(page.getByRole('button', { name: 'Send' })).toBeVisible();
	return reply;
}

async function chatWith(page: Page, preset: string, baseUrl: string, model: string): Promise<void> {
	await openApp(page);
	const label = await addProvider(page, preset, baseUrl, model);
	await useNativeCompaction(page);
	await chooseModel(page, label);
}

test('OpenAI compacts on demand: one provider_native / manual, its window replayed verbatim, and a local summary first when the model changes', async ({ page }) => {
	await chatWith(page, 'OpenAI', `${mock.url}/v1`, 'gpt-5.6');
	for (const text of ['Plan a trip to Kyoto', 'Which temples?', 'And the food?']) await sendAndWait(page, text);
	// The app's own threshold goes with every request.
	expect(answers('/v1/responses')[0].body).toMatchObject({ store: false, context_management: [{ type: 'compaction', compact_threshold: 320_000 }] });

	await page.getByRole('button', { name: 'Compact now' }).click();
	await expect(marker(page)).toHaveCount(1);
	await expect(marker(page)).toContainText('the provider compacted this conversation');
	await expect(marker(page)).toContainText('opaque');
	await expect(transcript(page)).not.toContainText('enc_mock_1');
	// What the provider compacted stays readable, as for the app's own compactions.
	await marker(page).getByRole('button', { name: 'Show compacted messages' }).click();
	await expect(marker(page).getByRole('region', { name: 'Compacted messages' })).toContainText('Mock answer to: Which temples?');
	await marker(page).getByRole('button', { name: 'Hide compacted messages' }).click();
	const [compact] = mock.requests.filter((r) => r.path === '/v1/responses/compact');
	expect(compact.body.model).toBe('gpt-5.6');
	expect(compact.body.input).toEqual([
		{ role: 'user', content: 'Plan a trip to Kyoto' },
		{ role: 'assistant', content: 'Mock answer to: Plan a trip to Kyoto' },
		{ role: 'user', content: 'Which temples?' },
		{ role: 'assistant', content: 'Mock answer to: Which temples?' }
	]);

	await sendAndWait(page, 'Book it');
	const window = [
		{ type: 'message', role: 'user', content: [{ type: 'input_text', text: 'Plan a trip to Kyoto' }] },
		{ type: 'message', role: 'user', content: [{ type: 'input_text', text: 'Which temples?' }] },
		{ type: 'compaction', id: 'cmp_mock_1', encrypted_content: 'enc_mock_1' }
	];
	expect(answers('/v1/responses').at(-1)!.body.input).toEqual([
		...window,
		{ role: 'user', content: 'And the food?' },
		{ role: 'assistant', content: 'Mock answer to: And the food?' },
		{ role: 'user', content: 'Book it' }
	]);
	await expectCompactions(page, ['provider_native/manual']);

	// The offline model cannot read OpenAI's item: the app summarises it here before going on.
	await chooseModel(page, OFFLINE_LABEL);
	await expectCompactions(page, ['provider_native/manual', 'summarize/unknown']);
	await navigate(page, 'Chat');
	await sendAndWait(page, 'Still there?');
});

test('OpenAI compacting on its own while answering: one provider_native / provider, the item sent back first', async ({ page }) => {
	await chatWith(page, 'OpenAI', `${mock.url}/v1`, 'gpt-5.6');
	await sendAndWait(page, 'Start a long task');
	mock.script([{ type: 'text', text: 'Carrying on after compacting.', compaction: {} }]);
	await sendWhileCompacting(page, 'Keep going', 'Carrying on after compacting.');
	await expect(marker(page)).toHaveCount(1);
	await expect(marker(page)).toContainText('the provider compacted on its own');
	await sendAndWait(page, 'Next step');
	expect(answers('/v1/responses').at(-1)!.body.input).toEqual([
		{ type: 'compaction', id: 'cmp_stream_1', encrypted_content: 'enc_stream_1' },
		{ role: 'user', content: 'Keep going' },
		{ role: 'assistant', content: 'Carrying on after compacting.' },
		{ role: 'user', content: 'Next step' }
	]);
	await expectCompactions(page, ['provider_native/provider']);
});

test('OpenAI refusing a request as too long: compacted through /responses/compact (provider_native / overflow), retried once with the window first', async ({ page }) => {
	await chatWith(page, 'OpenAI', `${mock.url}/v1`, 'gpt-5.6');
	const long = (text: string) => `${text}: ${Array.from({ length: 120 }, (_, i) => `point${i}`).join(' ')}`;
	for (const text of ['Outline the essay', 'Add a counterpoint']) await sendAndWait(page, long(text));
	const message = 'Your input exceeds the context window of this model. Please adjust your input and try again.';
	mock.script([{ type: 'http_error', status: 400, body: { error: { message, type: 'invalid_request_error', param: 'input', code: 'context_length_exceeded' } } }]);
	const before = answers('/v1/responses').length;
	await sendWhileCompacting(page, 'Now the conclusion');
	// The refused request and its one retry.
	expect(answers('/v1/responses').length - before).toBe(2);
	const [compact] = mock.requests.filter((r) => r.path === '/v1/responses/compact');
	expect(compact.body.input[0]).toEqual({ role: 'user', content: long('Outline the essay') });
	const retry = answers('/v1/responses').at(-1)!.body.input;
	expect(retry[0]).toEqual({ type: 'message', role: 'user', content: [{ type: 'input_text', text: long('Outline the essay') }] });
	expect(retry).toContainEqual({ type: 'compaction', id: 'cmp_mock_1', encrypted_content: 'enc_mock_1' });
	expect(retry.at(-1)).toEqual({ role: 'user', content: 'Now the conclusion' });
	await expectCompactions(page, ['provider_native/overflow']);
});

test('Anthropic compacting on its own: a failed block changes nothing; a real one is shown, announced once, and sent back first', async ({ page }) => {
	await chatWith(page, 'Anthropic', mock.url, 'claude-opus-4-6');
	mock.script([{ type: 'text', text: 'First answer.', compaction: { content: null } }]);
	await sendAndWait(page, 'Help me build a scraper');
	await expect(marker(page)).toHaveCount(0);
	const edits = answers('/v1/messages')[0];
	expect(edits.headers['anthropic-beta']).toContain('compact-2026-01-12');
	expect(edits.body.context_management).toEqual({ edits: [{ type: 'compact_20260112', trigger: { type: 'input_tokens', value: 160_000 } }] });

	mock.script([{ type: 'text', text: 'Second answer.', compaction: { content: 'The user is building a scraper.', encrypted_content: 'opaque-meta' } }]);
	await sendWhileCompacting(page, 'Add error handling', 'Second answer.');
	await expect(marker(page)).toHaveCount(1);
	await marker(page).getByText('Summary the provider wrote').click();
	await expect(marker(page)).toContainText('The user is building a scraper.');
	await sendAndWait(page, 'And retries?');
	const next = answers('/v1/messages').at(-1)!;
	expect(next.body.messages[0]).toEqual({ role: 'assistant', content: [{ type: 'compaction', content: 'The user is building a scraper.', encrypted_content: 'opaque-meta' }] });
	expect(next.body.messages.slice(1).map((m: { role: string }) => m.role)).toEqual(['user', 'assistant', 'user']);
	await expectCompactions(page, ['provider_native/provider']);
});

test('Anthropic pausing after it compacted: the same turn asks again with the block first, stores one answer, and announces it once', async ({ page }) => {
	await chatWith(page, 'Anthropic', mock.url, 'claude-opus-4-6');
	await sendAndWait(page, 'Draft the report outline');
	mock.script([
		{ type: 'text', text: '', compaction: { content: 'The user is drafting a report.' }, finish: 'compaction' },
		{ type: 'text', text: 'Section two follows the outline.' }
	]);
	await sendWhileCompacting(page, 'Write section two', 'Section two follows the outline.');
	const [paused, resumed] = answers('/v1/messages').slice(-2);
	expect(paused.body.messages.at(-1)).toEqual({ role: 'user', content: [{ type: 'text', text: 'Write section two' }] });
	expect(resumed.body.messages).toEqual([
		{ role: 'assistant', content: [{ type: 'compaction', content: 'The user is drafting a report.' }] },
		{ role: 'user', content: [{ type: 'text', text: 'Write section two' }] }
	]);
	// The paused, empty answer gave way to the one the resumed request brought (the first answer is compacted away).
	await expect(assistantMessages(page)).toHaveCount(1);
	await expect(marker(page)).toHaveCount(1);
	await expectCompactions(page, ['provider_native/provider']);
});

test('Anthropic compacts on demand: one provider_native / manual, the signed block sent back first with its beta', async ({ page }) => {
	await chatWith(page, 'Anthropic', mock.url, 'claude-opus-4-6');
	for (const text of ['Name the entities', 'Fields for Recipe?', 'Fields for Step?']) await sendAndWait(page, text);
	await page.getByRole('button', { name: 'Compact now' }).click();
	await expect(marker(page)).toHaveCount(1);
	const summarizing = mock.requests.find((r) => r.body?.compaction)!;
	expect(summarizing.headers['anthropic-beta']).toBe('compact-2026-09-04');
	expect(summarizing.body).toMatchObject({ compaction: { type: 'summarize' }, stream: false });
	expect(summarizing.body.context_management).toBeUndefined();

	await sendAndWait(page, 'Indexes?');
	const next = answers('/v1/messages').at(-1)!;
	expect(next.headers['anthropic-beta']).toContain('compact-2026-09-04');
	expect(next.body.messages[0].content[0]).toEqual({ type: 'compaction', content: 'Mock summary 1 of 4 messages.', signature: 'sig_mock_1' });
	await expectCompactions(page, ['provider_native/manual']);
});

test('Anthropic clearing old tool results: one prune_tool_results / provider, and the same result stubbed in the next request', async ({ page }) => {
	await openApp(page);
	await expect(rowStatus(await addPlugin(page, `${origins.cors}/pager.js`, 'Pager'), 'Loaded')).toBeVisible();
	await chatWith(page, 'Anthropic', mock.url, 'claude-opus-4-6');
	mock.script([
		{ type: 'tool_call', name: 'read_page', arguments: { url: 'https://example.com/tides' }, id: 'toolu_1' },
		{ type: 'text', text: 'The page is about tides.' },
		{ type: 'text', text: 'Noted.', clearedToolUses: 1 }
	]);
	await sendAndWait(page, 'Read the tides page');
	// Requests that offer tools ask the server to clear old tool uses.
	expect(answers('/v1/messages')[0].body.context_management.edits[0]).toEqual({ type: 'clear_tool_uses_20250919', trigger: { type: 'input_tokens', value: 160_000 } });
	await sendAndWait(page, 'Thanks');
	await expect(marker(page)).toHaveCount(1);
	await expect(marker(page)).toContainText('old tool outputs pruned');
	await sendAndWait(page, 'Anything else?');
	const results = answers('/v1/messages').at(-1)!.body.messages.flatMap((m: { content: Array<{ type: string; content?: string }> }) => m.content.filter((b) => b.type === 'tool_result'));
	expect(results).toHaveLength(1);
	expect(results[0].content).toMatch(/^\[Tool output pruned/);
	await expectCompactions(page, ['prune_tool_results/provider']);
});

test("an overflow the provider's limit wins: the window is learned from the error, the conversation compacted, retried once, and answered", async ({ page }) => {
	await openApp(page);
	const label = await addProvider(page, 'Custom (OpenAI-compatible)', `${mock.url}/v1`, 'small-local-model');
	await chooseModel(page, label);
	// About 5,000 tokens by the app's count, far below the 128,000 it assumes for an unknown model.
	const words = (n: number, seed: string) => Array.from({ length: n }, (_, i) => `${seed}${i % 97}`).join(' ');
	for (const seed of ['harbour', 'lantern', 'orchard']) await sendAndWait(page, words(250, seed));
	const meter = page.getByRole('status', { name: 'Context usage' });
	await expect(meter).toContainText('/ 128,000 tokens');

	const message = "This model's maximum context length is 8192 tokens. However, your messages resulted in 9120 tokens. Please reduce the length of the messages.";
	mock.script([
		{ type: 'http_error', status: 400, body: { error: { message, type: 'invalid_request_error', code: 'context_length_exceeded' } } },
		// The summary the model writes of the older part.
		{ type: 'text', text: '## Goal\n- Talk about harbours, lanterns and orchards.' }
	]);
	const chats = () => answers('/v1/chat/completions').filter((r) => r.body.max_tokens === undefined).length;
	const before = chats();
	await sendWhileCompacting(page, 'Summarise what we covered');
	// The refused request and its one retry.
	expect(chats() - before).toBe(2);
	await expect(meter).toContainText('/ 8,192 tokens');
	await expect(marker(page)).toHaveCount(1);
	await expectCompactions(page, ['summarize/overflow']);
});
