// Chat settings in the built app, against the mock providers that record every body: a chat's
// own system prompt and parameters go in its requests in each wire format's own fields, never in
// another chat's; they are in What the model received, survive a reload and an export and
// import; a chat whose compaction is off says so and asks when it is full; and the dialog is
// named, labelled, closed by Escape with focus back on its button.
import { readFile, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, test, type Locator, type Page } from './test-base';
import { assistantMessages, newSession, numberIn, openApp, sendAndWait, sessionIdFromUrl, sessionLinks, transcript, userMessages } from './helpers';
import { addCustomProvider, navigate } from './plugin-helpers';
import { addProvider, chooseModel } from './provider-helpers';
import { createProfile } from './profile-helpers';
import { useMockProvider } from './test-servers';
import { expectNoSeriousIssues } from './accessibility';

const mock = useMockProvider();

const bodiesTo = (suffix: string) => mock.requests.filter((r) => r.method === 'POST' && r.path.endsWith(suffix)).map((r) => r.body);

function chatSettings(page: Page): Locator {
	return page.getByRole('dialog', { name: 'Chat settings' });
}

async function openChatSettings(page: Page): Promise<Locator> {
	await page.getByRole('button', { name: 'Chat settings' }).click();
	const dialog = chatSettings(page);
	await expect(dialog).toBeVisible();
	return dialog;
}

/** Opens Chat settings, fills what is given (a number field given '' is emptied), and saves. */
async function setChatSettings(page: Page, values: { prompt?: string; temperature?: string; topP?: string; maxTokens?: string; effort?: 'Low' | 'Medium' | 'High'; compaction?: 'Automatic' | 'Threshold of its own' | 'Off' }): Promise<void> {
	const dialog = await openChatSettings(page);
	if (values.prompt !== undefined) await dialog.getByRole('textbox', { name: 'System prompt' }).fill(values.prompt);
	if (values.temperature !== undefined) await dialog.getByRole('spinbutton', { name: 'Temperature' }).fill(values.temperature);
	if (values.topP !== undefined) await dialog.getByRole('spinbutton', { name: 'Top P' }).fill(values.topP);
	if (values.maxTokens !== undefined) await dialog.getByRole('spinbutton', { name: 'Max answer tokens' }).fill(values.maxTokens);
	if (values.effort) await dialog.getByRole('combobox', { name: 'Reasoning effort' }).selectOption({ label: values.effort });
	if (values.compaction) await dialog.getByRole('radio', { name: new RegExp(`^${values.compaction}`) }).check();
	await dialog.getByRole('button', { name: 'Save' }).click();
	await expect(dialog).toBeHidden();
}

test("a chat's system prompt and temperature are in its requests (Chat Completions), in What the model received and after a reload; another chat's follow Settings", async ({ page }) => {
	await openApp(page);
	const label = await addCustomProvider(page, `${mock.url}/v1`, 'mock-model');
	await chooseModel(page, label);

	// Set on the new chat before its first message: the session it makes starts with them.
	await setChatSettings(page, { prompt: 'Answer as a pirate.', temperature: '0.3', topP: '0.9', maxTokens: '700', effort: 'High' });
	const pirateAnswer = await sendAndWait(page, 'Hello, captain');
	const pirateId = sessionIdFromUrl(page);
	expect(bodiesTo('/chat/completions').at(-1)).toMatchObject({ temperature: 0.3, top_p: 0.9, max_tokens: 700, reasoning_effort: 'high', messages: [{ role: 'system', content: 'Answer as a pirate.' }, { role: 'user', content: 'Hello, captain' }] });

	await newSession(page);
	await sendAndWait(page, 'Hello, clerk');
	const plain = bodiesTo('/chat/completions').at(-1);
	expect(JSON.stringify(plain)).not.toContain('pirate');
	for (const field of ['temperature', 'top_p', 'max_tokens', 'reasoning_effort']) expect(plain).not.toHaveProperty(field);
	// A new chat starts from the defaults.
	const fresh = await openChatSettings(page);
	await expect(fresh.getByRole('textbox', { name: 'System prompt' })).toHaveValue('');
	await expect(fresh.getByRole('spinbutton', { name: 'Temperature' })).toHaveValue('');
	await page.keyboard.press('Escape');

	await sessionLinks(page).filter({ hasText: 'Hello, captain' }).click();
	await expect(page).toHaveURL(new RegExp(pirateId));
	await pirateAnswer.getByRole('button', { name: 'What the model received' }).click();
	const received = page.getByRole('dialog', { name: 'What the model received' });
	await expect(received).toContainText('Temperature 0.3 · Top P 0.9 · Max answer tokens 700 · Reasoning effort high');
	await expect(received.getByRole('list', { name: 'Request parts' }).getByRole('listitem').first()).toContainText('Answer as a pirate.');
	await expect(received.getByLabel('Request body')).toContainText('"temperature": 0.3');
	await page.keyboard.press('Escape');

	await page.reload();
	await expect(userMessages(page)).toHaveCount(1);
	const kept = await openChatSettings(page);
	await expect(kept.getByRole('textbox', { name: 'System prompt' })).toHaveValue('Answer as a pirate.');
	await expect(kept.getByRole('spinbutton', { name: 'Temperature' })).toHaveValue('0.3');
	await expect(kept.getByRole('spinbutton', { name: 'Max answer tokens' })).toHaveValue('700');
	await page.keyboard.press('Escape');
	await sendAndWait(page, 'Where is the treasure?');
	const again = bodiesTo('/chat/completions').at(-1);
	expect(again.temperature).toBe(0.3);
	expect(again.messages[0]).toEqual({ role: 'system', content: 'Answer as a pirate.' });
});

test("an Anthropic chat's settings go in system, temperature, top_p and max_tokens, and not in another chat's", async ({ page }) => {
	await openApp(page);
	const label = await addProvider(page, 'Anthropic', mock.url, 'claude-mock');
	await chooseModel(page, label);
	await setChatSettings(page, { prompt: 'Answer in haiku.', temperature: '0.2', topP: '0.5', maxTokens: '300' });
	await sendAndWait(page, 'Tell me of the sea');
	expect(bodiesTo('/messages').at(-1)).toMatchObject({ system: 'Answer in haiku.', temperature: 0.2, top_p: 0.5, max_tokens: 300 });

	await newSession(page);
	await sendAndWait(page, 'Tell me of the land');
	const plain = bodiesTo('/messages').at(-1);
	expect(plain.system).not.toContain('haiku');
	expect(plain).not.toHaveProperty('temperature');
	expect(plain).not.toHaveProperty('top_p');
	expect(plain.max_tokens).toBe(8192);
});

test("the meter counts a chat's own system prompt, before its first message and after", async ({ page }) => {
	await openApp(page);
	const meter = page.getByRole('status', { name: 'Context usage' });
	const tokens = () => numberIn(meter, /([\d,]+) \//);
	const empty = await tokens();
	const long = 'Answer as a pirate who has sailed every sea, and tell of each one at length. '.repeat(30);
	await setChatSettings(page, { prompt: long });
	await expect.poll(tokens).toBeGreaterThan(empty + 400);
	await sendAndWait(page, 'echo: ahoy');
	const withPrompt = await tokens();
	await setChatSettings(page, { prompt: '' });
	await expect.poll(tokens).toBeLessThan(withPrompt - 400);
});

test('the dialog is named, every field labelled, Escape closes it with focus back on its button, and axe finds no serious issue', async ({ page }) => {
	await openApp(page);
	const button = page.getByRole('button', { name: 'Chat settings' });
	const dialog = await openChatSettings(page);
	for (const name of ['System prompt']) await expect(dialog.getByRole('textbox', { name })).toBeVisible();
	for (const name of ['Temperature', 'Top P', 'Max answer tokens']) await expect(dialog.getByRole('spinbutton', { name })).toBeVisible();
	for (const name of ['Automatic', 'Threshold of its own', 'Off']) await expect(dialog.getByRole('radio', { name: new RegExp(`^${name}`) })).toBeVisible();
	// The offline model has no reasoning effort to set.
	await expect(dialog.getByRole('combobox', { name: 'Reasoning effort' })).toHaveCount(0);
	await dialog.getByRole('radio', { name: /^Threshold of its own/ }).check();
	await expect(dialog.getByRole('spinbutton', { name: 'Threshold (%)' })).toHaveValue('80');
	await expectNoSeriousIssues(page, 'dialog[open]');
	// A value out of range is refused, saying which field and why; nothing is saved.
	await dialog.getByRole('spinbutton', { name: 'Temperature' }).fill('3');
	await dialog.getByRole('button', { name: 'Save' }).click();
	await expect(dialog.getByRole('alert')).toHaveText('Temperature is a number from 0 to 2, or empty for the default.');
	await page.keyboard.press('Escape');
	await expect(dialog).toBeHidden();
	await expect(button).toBeFocused();
	await button.click();
	await expect(dialog.getByRole('spinbutton', { name: 'Temperature' })).toHaveValue('');
	await dialog.getByRole('button', { name: 'Cancel' }).click();
	await expect(button).toBeFocused();
});

test('a chat whose compaction is off says so in the meter and, when full, asks: Cancel keeps the message, Send anyway sends it whole, Compact now compacts first', async ({ page }) => {
	await openApp(page);
	await navigate(page, 'Settings');
	await page.getByRole('combobox', { name: 'Model name' }).fill('offline-mini');
	await page.getByRole('spinbutton', { name: 'Context window (tokens)' }).fill('1000');
	await page.getByRole('button', { name: 'Set window' }).click();
	await expect(page.getByText('offline-mini: 1,000 tokens')).toBeVisible();
	await navigate(page, 'Chat');
	const meter = page.getByRole('status', { name: 'Context usage' });
	await expect(meter).toContainText('compacts at 80%');
	await setChatSettings(page, { compaction: 'Off' });
	await expect(meter).toContainText('compaction off');

	// One long answer fills the window, far past the 80% where Settings would compact: nothing compacts on its own.
	const marker = transcript(page).getByRole('region', { name: 'Context compacted' });
	await sendAndWait(page, 'long 1000 about harbours');
	await expect(meter).toContainText('(100%, compaction off)');
	await expect(marker).toHaveCount(0);

	const box = page.getByRole('textbox', { name: 'Message' });
	const full = page.getByRole('dialog', { name: 'The context is full' });
	await box.fill('And the tides?');
	await box.press('Enter');
	await full.getByRole('button', { name: 'Cancel' }).click();
	await expect(full).toBeHidden();
	await expect(box).toHaveValue('And the tides?');
	await expect(userMessages(page)).toHaveCount(1);

	await box.press('Enter');
	await full.getByRole('button', { name: 'Send anyway' }).click();
	await expect(userMessages(page)).toHaveCount(2);
	await expect(assistantMessages(page).last()).toHaveAttribute('data-status', 'complete');
	await expect(marker).toHaveCount(0);

	// Once that turn is over (Send is back in place of Stop), the next message can go.
	await box.fill('And the lighthouses?');
	await expect(page.getByRole('button', { name: 'Send' })).toBeVisible();
	await box.press('Enter');
	await full.getByRole('button', { name: 'Compact now' }).click();
	await expect(marker).toHaveCount(1);
	await expect(userMessages(page).last()).toContainText('And the lighthouses?');
	await expect(assistantMessages(page).last()).toHaveAttribute('data-status', 'complete');
	await expect(meter).toContainText('compaction off');
});

test("a chat's settings are exported and imported with it", async ({ page }) => {
	const dir = await mkdtemp(join(tmpdir(), 'palimpsest-chat-settings-'));
	try {
		await openApp(page);
		await setChatSettings(page, { prompt: 'Answer as a pirate.', temperature: '1.2', compaction: 'Off' });
		await sendAndWait(page, 'echo: ahoy');
		await navigate(page, 'Settings');
		const download = page.waitForEvent('download');
		await page.getByRole('button', { name: 'Export', exact: true }).click();
		const file = await download;
		const path = join(dir, file.suggestedFilename());
		await file.saveAs(path);
		expect(JSON.parse(await readFile(path, 'utf8')).sessions[0].session.chat_settings).toEqual({ system_prompt: 'Answer as a pirate.', temperature: 1.2, compaction: 'off' });

		await createProfile(page, 'Restored');
		// An import is hostile: a temperature out of range is dropped, the rest kept.
		const text = (await readFile(path, 'utf8')).replace('"temperature":1.2', '"temperature":9');
		await writeFile(path, text);
		const chooser = page.waitForEvent('filechooser');
		await page.getByRole('button', { name: 'Import', exact: true }).click();
		await (await chooser).setFiles(path);
		await expect(page.getByRole('status', { name: 'Transfer status' })).toContainText('Imported 1 session');
		await sessionLinks(page).filter({ hasText: 'echo: ahoy' }).click();
		await expect(page.getByRole('status', { name: 'Context usage' })).toContainText('compaction off');
		const dialog = await openChatSettings(page);
		await expect(dialog.getByRole('textbox', { name: 'System prompt' })).toHaveValue('Answer as a pirate.');
		await expect(dialog.getByRole('spinbutton', { name: 'Temperature' })).toHaveValue('');
		await expect(dialog.getByRole('radio', { name: /^Off/ })).toBeChecked();
	} finally {
		await rm(dir, { recursive: true, force: true });
	}
});
