// Two devices (two browser contexts, each its own IndexedDB) syncing through one database of a
// CouchDB-compatible server with a Sync passphrase: the server holds no title, message text or
// file bytes; a device without the passphrase reads nothing and says it needs it; a document the
// server changed is refused and the conversation stays whole, one it deleted is sent again; a
// passphrase change reaches the other device; an unencrypted database is encrypted by moving.
import { expect, test, type Page } from './test-base';
import { messageBody, newSession, openApp, sendAndWait, sendMessage, sessionLinks, transcript, waitForAnswer } from './helpers';
import { attachByButton, send } from './attachment-helpers';
import { navigate } from './plugin-helpers';
import { createDatabase as createDatabaseOn, secondDevice } from './sync-helpers';
import { useCouchServer } from './test-servers';

const couch = useCouchServer();
const createDatabase = () => createDatabaseOn(couch.url);
const PASSPHRASE = 'correct horse battery staple';
const NOTES = { name: 'notes.txt', mimeType: 'text/plain', buffer: Buffer.from('File bytes sentinel, from the notes.') };

type Doc = Record<string, unknown> & { _id: string; _rev: string };

const syncRegion = (page: Page) => page.getByRole('region', { name: 'Sync' });
const syncStatus = (page: Page) => syncRegion(page).getByRole('status', { name: 'Sync status' });

/** Settings → Sync: the database, and a Sync passphrase when given; Start sync, and the status it comes to. */
async function startSync(page: Page, database: string, passphrase: string, status: RegExp | string = /^Up to date/): Promise<void> {
	await navigate(page, 'Settings');
	await syncRegion(page).getByRole('textbox', { name: 'Sync server' }).fill(database);
	await syncRegion(page).getByLabel('Sync passphrase', { exact: true }).fill(passphrase);
	await syncRegion(page).getByRole('button', { name: 'Start sync' }).click();
	await expect(syncStatus(page)).toHaveText(status, { timeout: 20_000 });
}

async function stopSync(page: Page): Promise<void> {
	await syncRegion(page).getByRole('button', { name: 'Stop sync' }).click();
	await expect(syncStatus(page)).toHaveText('Sync is off.');
}

/** Every document of the database with its attachments' bytes, and its changes feed, as text to search. */
async function serverText(database: string): Promise<string> {
	const listed = (await (await fetch(`${database}/_all_docs?include_docs=true&attachments=true`)).json()) as { rows: { doc: Doc }[] };
	const docs = listed.rows.map((row) => row.doc);
	const files = docs.flatMap((doc) => Object.values((doc._attachments ?? {}) as Record<string, { data: string }>).map((attachment) => Buffer.from(attachment.data, 'base64').toString('latin1')));
	return [JSON.stringify(docs), await (await fetch(`${database}/_changes?include_docs=true`)).text(), ...files].join('\n');
}

async function messageDocs(database: string): Promise<Doc[]> {
	const listed = (await (await fetch(`${database}/_all_docs?include_docs=true&startkey="msg:"&endkey="msg:\ufff0"`)).json()) as { rows: { doc: Doc }[] };
	return listed.rows.map((row) => row.doc);
}

async function keyId(database: string): Promise<string> {
	return ((await (await fetch(`${database}/sync-key`)).json()) as { kid: string }).kid;
}

test('two devices with one passphrase sync, while the server holds no title, message text or file bytes', async ({ page, browser }) => {
	const database = await createDatabase();
	await openApp(page);
	await sendAndWait(page, 'echo: Message sentinel');
	await sendMessage(page, '/title Title sentinel');
	await expect(sessionLinks(page)).toHaveText(['Title sentinel']);
	await attachByButton(page, [NOTES]);
	await send(page, 'echo: with the notes');
	await waitForAnswer(page);
	await startSync(page, database, PASSPHRASE);

	const phone = await secondDevice(browser);
	await startSync(phone, database, PASSPHRASE);
	await navigate(phone, 'Chat');
	await sessionLinks(phone).filter({ hasText: 'Title sentinel' }).click();
	await expect(messageBody(transcript(phone).getByRole('article').first())).toHaveText('echo: Message sentinel');
	await expect(transcript(phone).getByText('notes.txt')).toBeVisible();

	const text = await serverText(database);
	for (const sentinel of ['Title sentinel', 'Message sentinel', 'File bytes sentinel', 'notes.txt', 'with the notes']) expect(text).not.toContain(sentinel);
	expect(text).toContain('"sealed"');

	// A reload keeps the key: no passphrase asked again.
	await phone.reload();
	await navigate(phone, 'Settings');
	await expect(syncStatus(phone)).toHaveText(/^Up to date/, { timeout: 20_000 });
	await expect(syncRegion(phone).getByText('Encrypted with the sync passphrase', { exact: false })).toBeVisible();
	await phone.context().close();
});

test('a device without the passphrase reads and writes nothing and says it needs it; a wrong one is told apart', async ({ page, browser }) => {
	const database = await createDatabase();
	await openApp(page);
	await sendAndWait(page, 'echo: from the laptop');
	await startSync(page, database, PASSPHRASE);
	const before = await serverText(database);

	const phone = await secondDevice(browser);
	await sendAndWait(phone, 'echo: only on the phone');
	await startSync(phone, database, '', 'This database is encrypted: enter its Sync passphrase and press Start sync. Nothing is read or sent until then.');
	await startSync(phone, database, 'correct horse battery stapler', 'That Sync passphrase does not open this database: nothing was read or sent. Type it again and press Start sync.');
	await navigate(phone, 'Chat');
	await expect(sessionLinks(phone)).toHaveText(['echo: only on the phone']);
	expect(await serverText(database)).toBe(before);

	await startSync(phone, database, PASSPHRASE);
	await navigate(phone, 'Chat');
	await expect(sessionLinks(phone)).toHaveText(['echo: only on the phone', 'echo: from the laptop']);
	await expect(sessionLinks(page)).toHaveText(['echo: only on the phone', 'echo: from the laptop'], { timeout: 20_000 });
	await phone.context().close();
});

test('a message changed on the server is refused and the conversation stays whole; one deleted there is sent again', async ({ page, browser }) => {
	const database = await createDatabase();
	await openApp(page);
	await sendAndWait(page, 'echo: first');
	await sendAndWait(page, 'echo: second');
	await startSync(page, database, PASSPHRASE);
	const phone = await secondDevice(browser);
	await startSync(phone, database, PASSPHRASE);
	await navigate(phone, 'Chat');
	await sessionLinks(phone).first().click();
	const lines = ['echo: first', 'first', 'echo: second', 'second'];
	await expect(messageBody(transcript(phone).getByRole('article'))).toHaveText(lines);

	// One byte of one message's ciphertext changed on the server.
	const [changed, deleted] = await messageDocs(database);
	const sealed = changed.sealed as { ct: string };
	const bytes = Buffer.from(sealed.ct, 'base64');
	bytes[Math.floor(bytes.length / 2)] ^= 0x01;
	const written = await fetch(`${database}/${encodeURIComponent(changed._id)}`, {
		method: 'PUT',
		headers: { 'content-type': 'application/json' },
		body: JSON.stringify({ ...changed, sealed: { ...sealed, ct: bytes.toString('base64') } })
	});
	expect(written.status).toBe(201);
	await navigate(phone, 'Settings');
	await expect(syncStatus(phone)).toHaveText('Up to date (1 document refused)', { timeout: 30_000 });
	await navigate(phone, 'Chat');
	await expect(messageBody(transcript(phone).getByRole('article'))).toHaveText(lines);

	// Another deleted outright on the server: a device sends its copy again.
	expect((await fetch(`${database}/${encodeURIComponent(deleted._id)}?rev=${deleted._rev}`, { method: 'DELETE' })).status).toBe(200);
	await expect.poll(async () => (await fetch(`${database}/${encodeURIComponent(deleted._id)}`)).status, { timeout: 30_000 }).toBe(200);
	await expect(messageBody(transcript(phone).getByRole('article'))).toHaveText(lines);
	await phone.context().close();
});

test('a passphrase changed on one device is asked for on the other, and sync goes on with it', async ({ page, browser }) => {
	const database = await createDatabase();
	await openApp(page);
	await sendAndWait(page, 'echo: before the change');
	await startSync(page, database, PASSPHRASE);
	const phone = await secondDevice(browser);
	await startSync(phone, database, PASSPHRASE);
	const oldKey = await keyId(database);

	await syncRegion(page).getByLabel('New sync passphrase').fill('a brand new passphrase');
	await syncRegion(page).getByRole('button', { name: 'Change passphrase' }).click();
	await expect.poll(() => keyId(database), { timeout: 20_000 }).not.toBe(oldKey);
	const newKey = await keyId(database);
	await expect.poll(async () => (await messageDocs(database)).map((doc) => (doc.sealed as { kid: string }).kid), { timeout: 20_000 }).toEqual([newKey, newKey]);
	await expect(syncStatus(phone)).toHaveText(
		'The sync passphrase was changed on another device: enter the new Sync passphrase and press Start sync. Nothing is read or sent until then.',
		{ timeout: 40_000 }
	);

	await navigate(page, 'Chat');
	await sendAndWait(page, 'echo: after the change');
	await startSync(phone, database, 'a brand new passphrase');
	await navigate(phone, 'Chat');
	await sessionLinks(phone).first().click();
	await expect(messageBody(transcript(phone).getByRole('article'))).toHaveText(['echo: before the change', 'before the change', 'echo: after the change', 'after the change'], { timeout: 20_000 });
	await phone.context().close();
});

test('a database that holds unencrypted sessions is encrypted by moving to a new one, as the status explains', async ({ page }) => {
	const database = await createDatabase();
	await openApp(page);
	await sendAndWait(page, 'echo: in the clear');
	await startSync(page, database, '');
	await stopSync(page);
	await startSync(page, database, PASSPHRASE, /^This database already holds sessions that are not encrypted, and the server would keep their old copies readable\. To encrypt, move to a new database/);

	const moved = await createDatabase();
	await stopSync(page);
	await startSync(page, moved, PASSPHRASE);
	expect(await serverText(moved)).not.toContain('in the clear');
	await navigate(page, 'Chat');
	await newSession(page);
	await sendAndWait(page, 'echo: after the move');
	await expect.poll(async () => (await messageDocs(moved)).length, { timeout: 20_000 }).toBe(4);
	expect(await serverText(moved)).not.toContain('after the move');
});
