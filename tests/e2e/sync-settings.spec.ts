// Settings → Sync against a CouchDB-compatible server: the form checks the address, Start sync
// runs the loop and the Sync status region says what it does, Stop sync stops it, the
// password is never stored, and a database that does not exist yet is created with Create database.
import { expect, test, type Page } from './test-base';
import { openApp, sendAndWait } from './helpers';
import { navigate, readRows } from './plugin-helpers';
import { useCouchServer } from './test-servers';

const couch = useCouchServer();
const PASSWORD = 'sync-password-sentinel-7f3a';
const UP_TO_DATE = /^Up to date/;

/** A new, empty database on the sync server; its URL. */
async function createDatabase(): Promise<string> {
	const url = `${couch.url}/palimpsest-${crypto.randomUUID()}`;
	const response = await fetch(url, { method: 'PUT' });
	expect(response.status).toBe(201);
	return url;
}

function syncSection(page: Page) {
	return page.getByRole('region', { name: 'Sync' });
}

test('the Sync server field refuses what is not a database address and starts nothing', async ({ page }) => {
	await openApp(page);
	await navigate(page, 'Settings');
	const sync = syncSection(page);
	await expect(sync.getByRole('status', { name: 'Sync status' })).toHaveText('Sync is off.');
	await sync.getByRole('textbox', { name: 'Sync server' }).fill('ftp://127.0.0.1/db');
	await sync.getByRole('button', { name: 'Start sync' }).click();
	await expect(sync.getByRole('alert')).toContainText('http:// or https://');
	await expect(sync.getByRole('status', { name: 'Sync status' })).toHaveText('Sync is off.');
	expect(await readRows(page, 'palimpsest-default', 'settings')).not.toContainEqual(expect.objectContaining({ key: 'sync.enabled', value: true }));
});

test('Start sync runs sync and Sync status says what it does; Stop sync stops it; the password is never stored', async ({ page }) => {
	const database = await createDatabase();
	await openApp(page);
	await navigate(page, 'Settings');
	const sync = syncSection(page);
	await sync.getByRole('textbox', { name: 'Sync server' }).fill(database);
	await sync.getByRole('textbox', { name: 'Username' }).fill('alice');
	await sync.getByLabel('Password').fill(PASSWORD);
	await sync.getByRole('button', { name: 'Start sync' }).click();

	// The loop runs in its worker and its status reaches the region.
	const status = sync.getByRole('status', { name: 'Sync status' });
	await expect(status).toHaveText(UP_TO_DATE);
	await expect(sync.getByLabel('Password')).toHaveValue('');
	const settings = await readRows(page, 'palimpsest-default', 'settings');
	expect(settings).toContainEqual({ key: 'sync.enabled', value: true });
	expect(settings).toContainEqual({ key: 'sync.server', value: database });
	expect(settings).toContainEqual({ key: 'sync.username', value: 'alice' });
	expect(JSON.stringify(settings)).not.toContain(PASSWORD);

	// Still on after a reload, without the password: the status says what happens.
	await page.reload();
	await expect(page.getByRole('heading', { level: 1, name: 'Settings' })).toBeVisible();
	await expect(syncSection(page).getByRole('textbox', { name: 'Sync server' })).toHaveValue(database);
	await expect(syncSection(page).getByRole('status', { name: 'Sync status' })).not.toHaveText(/^(Sync is off\.|Starting sync…)$/);

	await syncSection(page).getByRole('button', { name: 'Stop sync' }).click();
	await expect(syncSection(page).getByRole('status', { name: 'Sync status' })).toHaveText('Sync is off.');
	await expect(syncSection(page).getByRole('button', { name: 'Start sync' })).toBeVisible();
	await expect.poll(() => readRows(page, 'palimpsest-default', 'settings')).toContainEqual({ key: 'sync.enabled', value: false });
	// The chat still works with sync stopped.
	await navigate(page, 'Chat');
	// Nothing the server holds carries the password.
	expect(await (await fetch(`${database}/_all_docs?include_docs=true`)).text()).not.toContain(PASSWORD);
});

/** The profile's sync lock as the browser holds it: how many tabs hold it and wait for it. */
async function syncLock(page: Page): Promise<{ held: number; pending: number }> {
	return page.evaluate(async () => {
		const { held = [], pending = [] } = await navigator.locks.query();
		return { held: held.filter((l) => l.name === 'palimpsest-sync:default').length, pending: pending.filter((l) => l.name === 'palimpsest-sync:default').length };
	});
}

test('one tab runs sync; another shows its status and takes the loop over when the first closes', async ({ page, context }) => {
	const database = await createDatabase();
	await openApp(page);
	await navigate(page, 'Settings');
	await syncSection(page).getByRole('textbox', { name: 'Sync server' }).fill(database);
	await syncSection(page).getByRole('button', { name: 'Start sync' }).click();
	await expect(syncSection(page).getByRole('status', { name: 'Sync status' })).toHaveText(UP_TO_DATE);
	await expect.poll(() => syncLock(page)).toEqual({ held: 1, pending: 0 });

	const second = await context.newPage();
	await openApp(second);
	await navigate(second, 'Settings');
	// The second tab waits for the loop, and shows the first tab's status meanwhile.
	await expect(syncSection(second).getByRole('status', { name: 'Sync status' })).toHaveText(UP_TO_DATE);
	await expect.poll(() => syncLock(second)).toEqual({ held: 1, pending: 1 });

	await page.close();
	await expect.poll(() => syncLock(second)).toEqual({ held: 1, pending: 0 });
	await expect(syncSection(second).getByRole('status', { name: 'Sync status' })).toHaveText(UP_TO_DATE);
	await syncSection(second).getByRole('button', { name: 'Stop sync' }).click();
	await expect(syncSection(second).getByRole('status', { name: 'Sync status' })).toHaveText('Sync is off.');
	await expect.poll(() => syncLock(second)).toEqual({ held: 0, pending: 0 });
});

test('a Sync server address whose database does not exist says so and offers Create database, which creates it and syncs', async ({ page }) => {
	const database = `${couch.url}/palimpsest-new-${crypto.randomUUID()}`;
	await openApp(page);
	await sendAndWait(page, 'echo: made before the database');
	await navigate(page, 'Settings');
	const sync = syncSection(page);
	await sync.getByRole('textbox', { name: 'Sync server' }).fill(database);
	await sync.getByRole('button', { name: 'Start sync' }).click();
	const status = sync.getByRole('status', { name: 'Sync status' });
	await expect(status).toHaveText(/^This database does not exist on the sync server/);

	await sync.getByRole('button', { name: 'Create database' }).click();
	await expect(status).toHaveText(UP_TO_DATE);
	await expect(sync.getByRole('button', { name: 'Create database' })).toHaveCount(0);
	// The session made before reached the new database.
	const [session] = await readRows(page, 'palimpsest-default', 'sessions');
	await expect
		.poll(async () => ((await (await fetch(`${database}/_all_docs`)).json()) as { rows?: { id: string }[] }).rows?.map((row) => row.id))
		.toContain(`session:${session.id}`);
});
