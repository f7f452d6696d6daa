// Two devices (two browser contexts, each its own IndexedDB) syncing through one database of a
// CouchDB-compatible server: a conversation made on one appears on the other in order, an answer
// written there comes back, messages both wrote while offline end in one order on both, a rename
// on one and an archive on the other both hold, and a deletion on one removes the session on both,
// also against an append the other wrote to it meanwhile (whose messages wait on the server with
// the deleted session, not lost).
import { expect, test } from './test-base';
import { messageBody, newSession, openApp, sendAndWait, sessionAction, sessionLinks, sidebar, transcript } from './helpers';
import { createDatabase as createDatabaseOn, secondDevice, startSync } from './sync-helpers';
import { useCouchServer } from './test-servers';

// Offline use needs the service worker (the code a device has not run yet comes from its cache).
test.use({ serviceWorkers: 'allow' });

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

test('both devices append to one session while offline; once online, both show every message in the same order', async ({ page, browser }) => {
	const database = await createDatabase();
	await openApp(page);
	await sendAndWait(page, 'echo: before going offline');
	await startSync(page, database);
	const phone = await secondDevice(browser);
	await startSync(phone, database);
	await sessionLinks(phone).first().click();
	await expect(messageBody(transcript(phone).getByRole('article'))).toHaveText(['echo: before going offline', 'before going offline']);

	await page.context().setOffline(true);
	await phone.context().setOffline(true);
	await sendAndWait(page, 'echo: written on the laptop');
	await sendAndWait(phone, 'echo: written on the phone');
	await sendAndWait(page, 'echo: the laptop again');
	await page.context().setOffline(false);
	await phone.context().setOffline(false);

	// Each device's messages follow what it had seen, in the order they were written.
	const lines = [
		'echo: before going offline',
		'before going offline',
		'echo: written on the laptop',
		'written on the laptop',
		'echo: written on the phone',
		'written on the phone',
		'echo: the laptop again',
		'the laptop again'
	];
	await expect(messageBody(transcript(page).getByRole('article'))).toHaveText(lines, { timeout: 20_000 });
	await expect(messageBody(transcript(phone).getByRole('article'))).toHaveText(lines, { timeout: 20_000 });
	await phone.reload();
	await expect(messageBody(transcript(phone).getByRole('article'))).toHaveText(lines);
	await phone.context().close();
});

test('a session renamed on one device and archived on the other, both offline, ends renamed and archived on both', async ({ page, browser }) => {
	const database = await createDatabase();
	await openApp(page);
	await sendAndWait(page, 'echo: a first title');
	await newSession(page);
	await sendAndWait(page, 'echo: stays listed');
	await startSync(page, database);
	const phone = await secondDevice(browser);
	await startSync(phone, database);
	await expect(sessionLinks(phone)).toHaveText(['echo: stays listed', 'echo: a first title']);

	await page.context().setOffline(true);
	await phone.context().setOffline(true);
	const row = (device: typeof page, title: string) => sidebar(device).getByRole('listitem').filter({ has: device.getByRole('link', { name: title, exact: true }) });
	await sessionAction(page, row(page, 'echo: a first title'), 'Rename');
	const title = sidebar(page).getByRole('textbox', { name: 'Session title' });
	await title.fill('Trip notes');
	await title.press('Enter');
	await expect(sessionLinks(page)).toHaveText(['echo: stays listed', 'Trip notes']);
	await sessionAction(phone, row(phone, 'echo: a first title'), 'Archive');
	await expect(sessionLinks(phone)).toHaveText(['echo: stays listed']);
	await page.context().setOffline(false);
	await phone.context().setOffline(false);

	for (const device of [page, phone]) {
		await expect(sessionLinks(device)).toHaveText(['echo: stays listed'], { timeout: 20_000 });
		await sidebar(device).getByRole('link', { name: 'Archived', exact: true }).click();
		await expect(device.getByRole('list', { name: 'Archived sessions' }).getByRole('link')).toHaveText(['Trip notes'], { timeout: 20_000 });
	}
	await phone.context().close();
});

test('a session deleted on one device while the other appended to it offline stays deleted on both; the late messages wait on the server with it, not lost', async ({ page, browser }) => {
	const database = await createDatabase();
	await openApp(page);
	await sendAndWait(page, 'echo: doomed');
	await newSession(page);
	await sendAndWait(page, 'echo: stays');
	await startSync(page, database);
	const phone = await secondDevice(browser);
	await startSync(phone, database);
	await expect(sessionLinks(phone)).toHaveText(['echo: stays', 'echo: doomed']);
	await sessionLinks(phone).filter({ hasText: 'echo: doomed' }).click();

	await phone.context().setOffline(true);
	await sendAndWait(phone, 'echo: a late append');
	const row = sidebar(page).getByRole('listitem').filter({ has: page.getByRole('link', { name: 'echo: doomed', exact: true }) });
	await sessionAction(page, row, 'Delete');
	await page.getByRole('dialog', { name: 'Delete this session?' }).getByRole('button', { name: 'Delete' }).click();
	await expect(sessionLinks(page)).toHaveText(['echo: stays']);
	await phone.context().setOffline(false);

	await expect(sessionLinks(phone)).toHaveText(['echo: stays'], { timeout: 20_000 });
	// On the server, the deleted session says so, and its messages wait with it (the late question and
	// its answer too), so a Restore within the period brings them all back: six with the kept two.
	const liveMessages = async () => {
		const listed = (await (await fetch(`${database}/_all_docs?startkey=${encodeURIComponent('"msg:"')}&endkey=${encodeURIComponent('"msg:\ufff0"')}`)).json()) as { rows: unknown[] };
		return listed.rows.length;
	};
	await expect.poll(liveMessages, { timeout: 20_000 }).toBe(6);
	const sessions = async () => {
		const listed = (await (await fetch(`${database}/_all_docs?include_docs=true&startkey=${encodeURIComponent('"session:"')}&endkey=${encodeURIComponent('"session:\ufff0"')}`)).json()) as { rows: Array<{ doc: { fields: { title: string; deleted_at: number | null } } }> };
		return listed.rows.map((row) => [row.doc.fields.title, row.doc.fields.deleted_at === null ? 'kept' : 'deleted']).sort();
	};
	await expect.poll(sessions, { timeout: 20_000 }).toEqual([
		['echo: doomed', 'deleted'],
		['echo: stays', 'kept']
	]);
	for (const device of [page, phone]) {
		await device.reload();
		await expect(sessionLinks(device)).toHaveText(['echo: stays']);
	}
	await phone.context().close();
});
