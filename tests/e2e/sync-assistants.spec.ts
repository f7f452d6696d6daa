// Two devices (two browser contexts, each its own IndexedDB) syncing through one database of a
// CouchDB-compatible server: an assistant made on one device is on the other, a chat started from
// it there names it on both, an edit comes back, and a deletion reaches both.
import { expect, test } from './test-base';
import { openApp, sendAndWait, sessionLinks } from './helpers';
import { navigate } from './plugin-helpers';
import { addAssistant, assistantRow, fillAssistant, headerAssistant, startChat } from './assistant-helpers';
import { createDatabase, secondDevice, startSync } from './sync-helpers';
import { useCouchServer } from './test-servers';

const couch = useCouchServer();

test('an assistant syncs between two devices, and so does the chat started from it', async ({ page, browser }) => {
	test.slow();
	const database = await createDatabase(couch.url);
	await openApp(page);
	await addAssistant(page, { name: 'Pirate', prompt: 'Answer as a pirate.', temperature: '0.3', starters: 'Ahoy?' });
	await startSync(page, database);
	const phone = await secondDevice(browser);
	await startSync(phone, database);

	await navigate(phone, 'Assistants');
	await expect(assistantRow(phone, 'Pirate')).toContainText('Answer as a pirate.', { timeout: 20_000 });
	await assistantRow(phone, 'Pirate').getByRole('button', { name: 'Edit' }).click();
	const form = phone.getByRole('form', { name: 'Edit Pirate' });
	await expect(form.getByRole('spinbutton', { name: 'Temperature' })).toHaveValue('0.3');
	await expect(form.getByRole('textbox', { name: 'Starter prompts' })).toHaveValue('Ahoy?');
	await fillAssistant(form, { name: 'Old pirate' });

	// The edit made on the phone comes back to the laptop.
	await navigate(page, 'Assistants');
	await expect(assistantRow(page, 'Old pirate')).toBeVisible({ timeout: 20_000 });

	// A chat started from it on the phone names it on the laptop too.
	await startChat(phone, 'Old pirate');
	await sendAndWait(phone, 'echo: ahoy');
	await expect(headerAssistant(phone)).toHaveText('Assistant: Old pirate');
	await sessionLinks(page).filter({ hasText: 'echo: ahoy' }).click({ timeout: 20_000 });
	await expect(headerAssistant(page)).toHaveText('Assistant: Old pirate');
	await page.getByRole('button', { name: 'Chat settings' }).click();
	const settings = page.getByRole('dialog', { name: 'Chat settings' });
	await expect(settings.getByRole('textbox', { name: 'System prompt' })).toHaveValue('Answer as a pirate.');
	await expect(settings.getByRole('spinbutton', { name: 'Temperature' })).toHaveValue('0.3');
	await page.keyboard.press('Escape');

	// Deleted on the laptop: gone on the phone.
	await navigate(page, 'Assistants');
	await assistantRow(page, 'Old pirate').getByRole('button', { name: 'Delete' }).click();
	await page.getByRole('dialog', { name: 'Delete this assistant?' }).getByRole('button', { name: 'Delete' }).click();
	await expect(assistantRow(page, 'Old pirate')).toHaveCount(0);
	await navigate(phone, 'Assistants');
	await expect(phone.getByText('No assistants yet.')).toBeVisible({ timeout: 20_000 });
	await phone.context().close();
});
