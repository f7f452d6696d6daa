// Assistants in the built app, against the mock providers that record every body: a chat started
// from an assistant sends its system prompt and temperature in each wire format's own fields (and
// another chat does not), names it in its header, offers its starter prompts (one clicked is
// sent); Edit, Duplicate and Delete; the file of assistants goes out and comes back, and a hostile
// one is trimmed with a clear message and nothing lost; and axe finds no serious issue.
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, test, type Page } from './test-base';
import { newSession, openApp, sendAndWait, userMessages } from './helpers';
import { addCustomProvider, navigate } from './plugin-helpers';
import { addProvider } from './provider-helpers';
import { createProfile } from './profile-helpers';
import { useMockProvider } from './test-servers';
import { expectNoSeriousIssues } from './accessibility';
import { addAssistant, assistantRow, chatHeader, fillAssistant, headerAssistant, startChat } from './assistant-helpers';

const mock = useMockProvider();

const bodiesTo = (suffix: string) => mock.requests.filter((r) => r.method === 'POST' && r.path.endsWith(suffix)).map((r) => r.body);
const starterPrompts = (page: Page) => page.getByRole('group', { name: 'Starter prompts' });

test('a chat started from an assistant takes its model, system prompt and temperature (Chat Completions), names it, and sends a starter prompt clicked; another chat does not', async ({ page }) => {
	await openApp(page);
	const label = await addCustomProvider(page, `${mock.url}/v1`, 'mock-model');
	await addAssistant(page, { name: 'Pirate', model: label, prompt: 'Answer as a pirate.', temperature: '0.3', starters: 'Where is the treasure?\nSing a shanty' });
	await expect(assistantRow(page, 'Pirate')).toContainText('mock-model · 2 starter prompts');

	await startChat(page, 'Pirate');
	await expect(page.getByRole('combobox', { name: 'Model' })).toHaveValue(/mock-model/);
	await expect(page.getByRole('group', { name: 'Example prompts' })).toHaveCount(0);
	// A starter prompt clicked is sent, as ChatGPT and LobeChat do.
	await starterPrompts(page).getByRole('button', { name: 'Where is the treasure?' }).click();
	await expect(page).toHaveURL(/\/s\/[^/?]+$/);
	await expect(userMessages(page)).toHaveCount(1);
	await expect(userMessages(page)).toContainText('Where is the treasure?');
	await expect(page.getByRole('button', { name: 'Send' })).toBeVisible();
	await expect.poll(() => bodiesTo('/chat/completions').length).toBe(1);
	expect(bodiesTo('/chat/completions')[0]).toMatchObject({ model: 'mock-model', temperature: 0.3, messages: [{ role: 'system', content: 'Answer as a pirate.' }, { role: 'user', content: 'Where is the treasure?' }] });
	await expect(headerAssistant(page)).toHaveText('Assistant: Pirate');

	// The chat keeps the assistant's name and settings after a reload.
	await page.reload();
	await expect(userMessages(page)).toHaveCount(1);
	await expect(headerAssistant(page)).toHaveText('Assistant: Pirate');
	await sendAndWait(page, 'And the map?');
	expect(bodiesTo('/chat/completions').at(-1)).toMatchObject({ temperature: 0.3 });
	expect(bodiesTo('/chat/completions').at(-1).messages[0]).toEqual({ role: 'system', content: 'Answer as a pirate.' });

	// A new chat is a plain one again: no assistant, no pirate, the provider's default temperature.
	await newSession(page);
	await expect(headerAssistant(page)).toHaveCount(0);
	await expect(page.getByRole('group', { name: 'Example prompts' })).toBeVisible();
	await sendAndWait(page, 'Hello, clerk');
	const plain = bodiesTo('/chat/completions').at(-1);
	expect(JSON.stringify(plain)).not.toContain('pirate');
	expect(plain).not.toHaveProperty('temperature');
	await expect(headerAssistant(page)).toHaveCount(0);
});

test("an Anthropic assistant's chat sends its system prompt and temperature in Anthropic's own fields, and another chat does not", async ({ page }) => {
	await openApp(page);
	const label = await addProvider(page, 'Anthropic', mock.url, 'claude-mock');
	await addAssistant(page, { name: 'Haiku poet', model: label, prompt: 'Answer in haiku.', temperature: '0.2' });
	await startChat(page, 'Haiku poet');
	await sendAndWait(page, 'Tell me of the sea');
	expect(bodiesTo('/messages').at(-1)).toMatchObject({ model: 'claude-mock', system: 'Answer in haiku.', temperature: 0.2 });
	await expect(headerAssistant(page)).toHaveText('Assistant: Haiku poet');

	await newSession(page);
	await sendAndWait(page, 'Tell me of the land');
	const plain = bodiesTo('/messages').at(-1);
	expect(JSON.stringify(plain.system ?? '')).not.toContain('haiku');
	expect(plain).not.toHaveProperty('temperature');
});

test('Edit, Duplicate and Delete: a copy has everything but its name, and a chat started from a deleted assistant keeps its settings and name', async ({ page }) => {
	await openApp(page);
	const label = await addCustomProvider(page, `${mock.url}/v1`, 'mock-model');
	await addAssistant(page, { name: 'Reviewer', model: label, prompt: 'Review code.', temperature: '0.5', starters: 'Review this' });

	await assistantRow(page, 'Reviewer').getByRole('button', { name: 'Edit' }).click();
	const form = page.getByRole('form', { name: 'Edit Reviewer' });
	await expect(form.getByRole('textbox', { name: 'System prompt' })).toHaveValue('Review code.');
	await expect(form.getByRole('spinbutton', { name: 'Temperature' })).toHaveValue('0.5');
	await fillAssistant(form, { name: 'Code reviewer', prompt: 'Review code strictly.' });
	await expect(page.getByRole('status')).toHaveText('Saved Code reviewer.');
	await expect(assistantRow(page, 'Reviewer')).toHaveCount(0);
	await expect(assistantRow(page, 'Code reviewer')).toContainText('Review code strictly.');
	// Focus is back on the Edit button that opened the form.
	await expect(assistantRow(page, 'Code reviewer').getByRole('button', { name: 'Edit' })).toBeFocused();

	await assistantRow(page, 'Code reviewer').getByRole('button', { name: 'Duplicate' }).click();
	await expect(page.getByRole('status')).toHaveText('Duplicated Code reviewer as Code reviewer (copy).');
	const copy = assistantRow(page, 'Code reviewer (copy)');
	await copy.getByRole('button', { name: 'Edit' }).click();
	const copyForm = page.getByRole('form', { name: 'Edit Code reviewer (copy)' });
	await expect(copyForm.getByRole('textbox', { name: 'System prompt' })).toHaveValue('Review code strictly.');
	await expect(copyForm.getByRole('spinbutton', { name: 'Temperature' })).toHaveValue('0.5');
	await expect(copyForm.getByRole('textbox', { name: 'Starter prompts' })).toHaveValue('Review this');
	await expect(copyForm.getByRole('combobox', { name: 'Model' })).toHaveValue(/mock-model/);
	await copyForm.getByRole('button', { name: 'Cancel' }).click();

	await startChat(page, 'Code reviewer (copy)');
	await sendAndWait(page, 'Review my loop');
	expect(bodiesTo('/chat/completions').at(-1)).toMatchObject({ temperature: 0.5, messages: [{ role: 'system', content: 'Review code strictly.' }, { role: 'user', content: 'Review my loop' }] });
	const chatUrl = page.url();

	await navigate(page, 'Assistants');
	await assistantRow(page, 'Code reviewer (copy)').getByRole('button', { name: 'Delete' }).click();
	const confirm = page.getByRole('dialog', { name: 'Delete this assistant?' });
	await confirm.getByRole('button', { name: 'Delete' }).click();
	await expect(assistantRow(page, 'Code reviewer (copy)')).toHaveCount(0);
	await expect(assistantRow(page, 'Code reviewer')).toBeVisible();

	await page.goto(chatUrl);
	await expect(headerAssistant(page)).toHaveText('Assistant: Code reviewer (copy)');
	await sendAndWait(page, 'And this one?');
	expect(bodiesTo('/chat/completions').at(-1)).toMatchObject({ temperature: 0.5 });
	expect(bodiesTo('/chat/completions').at(-1).messages[0]).toEqual({ role: 'system', content: 'Review code strictly.' });
	// A new chat at the address of a deleted assistant says so and starts from Settings.
	await page.goto('/?assistant=gone');
	await expect(page.getByRole('alert')).toHaveText('This assistant no longer exists: the new chat starts from Settings.');
	await expect(headerAssistant(page)).toHaveCount(0);
});

test('the file of assistants comes back whole in another profile; a hostile one is trimmed with a clear message and nothing lost', async ({ page }) => {
	const dir = await mkdtemp(join(tmpdir(), 'palimpsest-assistants-'));
	try {
		await openApp(page);
		await addAssistant(page, { name: 'Translator', prompt: 'Translate into French.', temperature: '0.1', starters: 'Bonjour?' });
		await addAssistant(page, { name: 'Plain' });
		const status = page.getByRole('status');
		const download = page.waitForEvent('download');
		await page.getByRole('button', { name: 'Export assistants' }).click();
		const file = await download;
		const path = join(dir, file.suggestedFilename());
		await file.saveAs(path);
		await expect(status).toHaveText(`Exported 2 assistants: ${file.suggestedFilename()}`);
		const exported = JSON.parse(await readFile(path, 'utf8'));
		expect(exported).toMatchObject({ format: 'palimpsest-assistants', version: 1, assistants: [{ name: 'Plain' }, { name: 'Translator', chat_settings: { system_prompt: 'Translate into French.', temperature: 0.1 }, starters: ['Bonjour?'] }] });

		await createProfile(page, 'Elsewhere');
		await navigate(page, 'Assistants');
		await expect(page.getByText('No assistants yet.')).toBeVisible();
		const importFile = async (file: string) => {
			const chooser = page.waitForEvent('filechooser');
			await page.getByRole('button', { name: 'Import assistants' }).click();
			await (await chooser).setFiles(file);
		};
		await importFile(path);
		await expect(status).toHaveText('Imported 2 assistants.');
		await assistantRow(page, 'Translator').getByRole('button', { name: 'Edit' }).click();
		const form = page.getByRole('form', { name: 'Edit Translator' });
		await expect(form.getByRole('textbox', { name: 'System prompt' })).toHaveValue('Translate into French.');
		await expect(form.getByRole('spinbutton', { name: 'Temperature' })).toHaveValue('0.1');
		await form.getByRole('button', { name: 'Cancel' }).click();
		// Again: nothing new.
		await importFile(path);
		await expect(status).toHaveText('No assistant was imported. Skipped 2 assistants this profile has already (or past the 500 a profile keeps).');

		// Wrong types, a giant string, extra fields, settings out of bounds, too many assistants.
		const hostile = {
			format: 'palimpsest-assistants',
			version: 1,
			assistants: [
				{ id: 'ok-1', name: 'Kept', chat_settings: { system_prompt: 'Fine.', onclick: 'alert(1)' }, colour: 'red' },
				{ id: 'bad-1', name: 42 },
				{ id: 'bad-2', name: 'x'.repeat(200_000) },
				{ id: 'bad-3', name: 'Hot', chat_settings: { temperature: 9 } },
				{ id: 'bad-4', name: 'Chatty', starters: 'not a list' },
				'<img src=x onerror=alert(1)>',
				...Array.from({ length: 510 }, (_, i) => ({ id: `many-${i}`, name: `Many ${i}` }))
			]
		};
		const hostilePath = join(dir, 'hostile.json');
		await writeFile(hostilePath, JSON.stringify(hostile));
		await importFile(hostilePath);
		await expect(status).toHaveText(
			'Imported 498 assistants. Skipped 2 assistants this profile has already (or past the 500 a profile keeps). Left out 16 entries that are not an assistant this app keeps (the first: assistant 2: its “name” is not non-empty text of at most 100 characters). Left out 2 unknown fields.'
		);
		await expect(assistantRow(page, 'Kept')).toBeVisible();
		await expect(assistantRow(page, 'Translator')).toBeVisible();
		await expect(page.getByRole('list', { name: 'Saved assistants' }).getByRole('listitem')).toHaveCount(500);

		// Not a file of assistants at all: refused whole, nothing changed.
		const notOne = join(dir, 'sessions.json');
		await writeFile(notOne, JSON.stringify({ format: 'palimpsest-sessions', version: 1, sessions: [] }));
		await importFile(notOne);
		await expect(page.getByRole('alert')).toHaveText('This file is not a file of assistants: choose one exported from the Assistants page.');
		await expect(page.getByRole('list', { name: 'Saved assistants' }).getByRole('listitem')).toHaveCount(500);
	} finally {
		await rm(dir, { recursive: true, force: true });
	}
});

test('the Assistants page, its form and a chat started from an assistant: every field labelled, and axe finds no serious issue', async ({ page }) => {
	// Three passes of axe over whole pages.
	test.slow();
	await openApp(page);
	await addAssistant(page, { name: 'Reviewer', prompt: 'Review code.', starters: 'Review this' });
	await expectNoSeriousIssues(page);
	await page.getByRole('button', { name: 'New assistant' }).click();
	const form = page.getByRole('form', { name: 'New assistant' });
	await expect(form.getByRole('textbox', { name: 'Name' })).toBeFocused();
	for (const name of ['System prompt', 'Starter prompts']) await expect(form.getByRole('textbox', { name })).toBeVisible();
	for (const name of ['Temperature', 'Top P', 'Max answer tokens']) await expect(form.getByRole('spinbutton', { name })).toBeVisible();
	await expect(form.getByRole('combobox', { name: 'Model' })).toBeVisible();
	await expectNoSeriousIssues(page);
	// Escape closes the form, focus back on New assistant.
	await page.keyboard.press('Escape');
	await expect(form).toBeHidden();
	await expect(page.getByRole('button', { name: 'New assistant' })).toBeFocused();
	await startChat(page, 'Reviewer');
	await expect(starterPrompts(page).getByRole('button', { name: 'Review this' })).toBeVisible();
	await expectNoSeriousIssues(page);
	await expect(chatHeader(page).getByRole('heading', { level: 1 })).toHaveText('New session');
});
