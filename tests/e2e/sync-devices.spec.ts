// Two devices (two browser contexts, each its own IndexedDB) syncing through one database of a
// CouchDB-compatible server: a conversation made on one appears on the other in order, an answer
// written there comes back, and a deletion on one removes the session on both.
import { expect, test } from './test-base';
import { messageBody, newSession, openApp, sendAndWait, sessionAction, sessionLinks, sidebar, transcript } from './helpers';
import { createDatabase as createDatabaseOn, secondDevice, startSync } from './sync-helpers';
import { useCouchServer } from './test-servers';

const couch = useCouchServer();
const createDatabase = () => createDatabaseOn(couch.url);

test('a conversation made on one device appears on the other in order, and an answer written there comes back', async ({ page, browser }) => {
	const database = await createDatabase();
	await openApp(page);
	await sendAndWait(page, 'echo: hello from the laptop');
	await sendAndWait(page, 'echo: a second question');
	await startSync(page, database);

	const phone = await secondDevice(browser);
	await startSync(phone, database);
	await expect(sessionLinks(phone)).toHaveText(['echo: hello from the laptop']);
	await sessionLinks(phone).first().click();
	const lines = ['echo: hello from the laptop', 'hello from the laptop', 'echo: a second question', 'a second question'];
	await expect(messageBody(transcript(phone).getByRole('article'))).toHaveText(lines);

	// Written on the phone, shown on the laptop (which keeps its session open) without a reload.
	await sendAndWait(phone, 'echo: and from the phone');
	await expect(messageBody(transcript(page).getByRole('article'))).toHaveText([...lines, 'echo: and from the phone', 'and from the phone'], { timeout: 20_000 });
	await phone.context().close();
});

test('a session deleted on one device is removed from the other, and does not come back', async ({ page, browser }) => {
	const database = await createDatabase();
	await openApp(page);
	await sendAndWait(page, 'echo: to be deleted');
	await sendAndWait(page, 'echo: kept elsewhere');
	await newSession(page);
	await sendAndWait(page, 'echo: stays');
	await startSync(page, database);
	const phone = await secondDevice(browser);
	await startSync(phone, database);
	await expect(sessionLinks(phone)).toHaveText(['echo: stays', 'echo: to be deleted']);

	const row = sidebar(page).getByRole('listitem').filter({ has: page.getByRole('link', { name: 'echo: to be deleted', exact: true }) });
	await sessionAction(page, row, 'Delete');
	await page.getByRole('dialog', { name: 'Delete this session?' }).getByRole('button', { name: 'Delete' }).click();
	await expect(sessionLinks(phone)).toHaveText(['echo: stays'], { timeout: 20_000 });
	await phone.reload();
	await expect(sessionLinks(phone)).toHaveText(['echo: stays']);
	await expect(sessionLinks(page)).toHaveText(['echo: stays']);
	await phone.context().close();
});
