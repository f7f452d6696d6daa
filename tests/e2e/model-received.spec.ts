// "What the model received" in the built app, against the mock provider that records every
// body: the view shows exactly the body the provider received (the plugin's context marked with
// its name, and after a compaction the summary marked), the key never, and copies as JSON or curl.
import { expect, test, type Locator, type Page } from './test-base';
import { assistantMessages, openApp, sendAndWait, transcript } from './helpers';
import { addCustomProvider, addPlugin, navigate, rowStatus } from './plugin-helpers';
import { useMockProvider, usePluginOrigins } from './test-servers';

const KEY = 'sk-never-shown-42';
const origins = usePluginOrigins();
const mock = useMockProvider();

const chatBodies = () => mock.requests.filter((r) => r.method === 'POST' && r.path.endsWith('/chat/completions')).map((r) => r.body);

/** Opens the dialog of an answer and returns it once the request is rebuilt. */
async function openReceived(page: Page, answer: Locator): Promise<Locator> {
	await answer.getByRole('button', { name: 'What the model received' }).click();
	const dialog = page.getByRole('dialog', { name: 'What the model received' });
	await expect(dialog.getByLabel('Request body')).toBeVisible();
	return dialog;
}

/** `text` read as JSON, or null while it is not whole JSON. */
function parsed(text: string | null): unknown {
	try {
		return JSON.parse(text ?? '');
	} catch {
		return null;
	}
}

const bodyShown = async (dialog: Locator) => parsed(await dialog.getByLabel('Request body').textContent());
const clipboard = (page: Page) => page.evaluate(() => navigator.clipboard.readText());

test('each answer shows the request the provider received, with the plugin context and, after a compaction, the summary marked', async ({ page, context }) => {
	await context.grantPermissions(['clipboard-read', 'clipboard-write']);
	await openApp(page);
	const row = await addPlugin(page, `${origins.cors}/inject.js`, 'Context injector');
	await expect(rowStatus(row, 'Loaded')).toBeVisible();
	const label = await addCustomProvider(page, `${mock.url}/v1`, 'mock-model', KEY);
	await navigate(page, 'Chat');
	await page.getByRole('combobox', { name: 'Model', exact: true }).selectOption({ label });

	const filler = (topic: string) => `Tell me about ${topic}. ${'The harbour wall and the tide tables and the pilots who read them. '.repeat(30)}`;
	await sendAndWait(page, filler('harbours'));
	await sendAndWait(page, filler('lighthouses'));
	const first = assistantMessages(page).last();
	let dialog = await openReceived(page, first);
	await expect.poll(() => bodyShown(dialog)).toEqual(chatBodies().at(-1));
	await expect(dialog.getByRole('list', { name: 'Request parts' })).toContainText('Added by Context injector');
	await expect(dialog.getByRole('list', { name: 'Request parts' })).toContainText('PLUGIN-CONTEXT-1234');
	await expect(dialog).not.toContainText(KEY);

	await dialog.getByRole('button', { name: 'Copy as curl' }).click();
	await expect(dialog.getByRole('status')).toContainText('curl command copied');
	await expect.poll(() => clipboard(page)).toContain(`${mock.url}/v1/chat/completions`);
	const curl = await clipboard(page);
	expect(curl).toContain('Bearer $OPENAI_API_KEY');
	expect(curl).not.toContain(KEY);
	await dialog.getByRole('button', { name: 'Copy as JSON' }).click();
	await expect.poll(async () => parsed(await clipboard(page))).toEqual(chatBodies().at(-1));
	await page.keyboard.press('Escape');
	await expect(dialog).toBeHidden();

	// A compaction: the summary replaces the first exchange in the next request, and is marked.
	mock.script([{ type: 'text', text: '## Goal\nLearn about harbours and lighthouses.' }]);
	await page.getByRole('button', { name: 'Compact now' }).click();
	await expect(transcript(page).getByRole('region', { name: 'Context compacted' })).toHaveCount(1);
	const answer = await sendAndWait(page, 'And the pilots?');
	dialog = await openReceived(page, answer);
	const sent = chatBodies().at(-1);
	await expect.poll(() => bodyShown(dialog)).toEqual(sent);
	expect(JSON.stringify(sent)).toContain('Learn about harbours and lighthouses.');
	const parts = dialog.getByRole('list', { name: 'Request parts' });
	await expect(parts.getByRole('listitem').filter({ hasText: 'Summary (compaction)' })).toContainText('Learn about harbours and lighthouses.');
	await expect(parts).toContainText('Added by Context injector');
	await page.keyboard.press('Escape');

	// Rebuilt from what is stored: the same after a reload.
	await page.reload();
	dialog = await openReceived(page, assistantMessages(page).last());
	await expect.poll(() => bodyShown(dialog)).toEqual(sent);
});
