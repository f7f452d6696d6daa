// Two devices (two browser contexts, each its own IndexedDB) syncing through one database of a
// CouchDB-compatible server: a chat's settings changed on one device reach the other, in the
// open chat's meter without a reload and in its Chat settings.
import { expect, test } from './test-base';
import { openApp, sendAndWait, sessionLinks } from './helpers';
import { createDatabase, secondDevice, startSync } from './sync-helpers';
import { useCouchServer } from './test-servers';

const couch = useCouchServer();

test("a chat's settings changed on one device reach the other", async ({ page, browser }) => {
	const database = await createDatabase(couch.url);
	await openApp(page);
	await sendAndWait(page, 'echo: ahoy');
	await startSync(page, database);
	const phone = await secondDevice(browser);
	await startSync(phone, database);
	await sessionLinks(phone).filter({ hasText: 'echo: ahoy' }).click();
	const phoneMeter = phone.getByRole('status', { name: 'Context usage' });
	await expect(phoneMeter).toContainText('compacts at 80%');

	await sessionLinks(page).filter({ hasText: 'echo: ahoy' }).click();
	await page.getByRole('button', { name: 'Chat settings' }).click();
	const dialog = page.getByRole('dialog', { name: 'Chat settings' });
	await dialog.getByRole('textbox', { name: 'System prompt' }).fill('Answer as a pirate.');
	await dialog.getByRole('spinbutton', { name: 'Temperature' }).fill('0.4');
	await dialog.getByRole('radio', { name: /^Off/ }).check();
	await dialog.getByRole('button', { name: 'Save' }).click();
	await expect(dialog).toBeHidden();

	// The open chat on the other device follows without a reload.
	await expect(phoneMeter).toContainText('compaction off', { timeout: 20_000 });
	await phone.getByRole('button', { name: 'Chat settings' }).click();
	const there = phone.getByRole('dialog', { name: 'Chat settings' });
	await expect(there.getByRole('textbox', { name: 'System prompt' })).toHaveValue('Answer as a pirate.');
	await expect(there.getByRole('spinbutton', { name: 'Temperature' })).toHaveValue('0.4');
	await phone.context().close();
});
