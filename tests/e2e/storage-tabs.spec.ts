// Storage across tabs and browser faults: a tab that closes while it answers, another version of
// the app upgrading the data, an upgrade kept waiting by an old tab, a database that cannot be
// opened, and a connection the browser drops while the tab is in the background.
import { expect, test, type Download, type Page } from './test-base';
import { readFile } from 'node:fs/promises';
import { LONG_PROMPT, assistantMessages, messageBody, messageText, openApp, sendAndWait, sendMessage, sessionIdFromUrl, sessionLinks, userMessages, waitForAnswer } from './helpers';
import {
	damageDatabase,
	holdVersion1Database,
	installConnectionLoss,
	loseConnections,
	openPlainPage,
	readStore,
	releaseOldConnection,
	setVisibility,
	upgradeAsNewerCode
} from './storage-helpers';
import { navigate } from './plugin-helpers';
import { chosenProfile } from './profile-helpers';

const DB = 'palimpsest-default';

/** IndexedDB's version of the app's database as the app opened it (Dexie stores schema version n as n × 10). */
async function rawVersion(page: Page): Promise<number> {
	const version = await page.evaluate(async (name) => (await indexedDB.databases()).find((db) => db.name === name)?.version, DB);
	expect(version, 'the app has opened its database').toBeGreaterThan(10);
	return version!;
}

async function downloadedJson(download: Promise<Download>): Promise<{ name: string; json: { session_count: number; sessions: Array<{ session: { title: string }; messages: Array<{ content: string }> }> } }> {
	const file = await download;
	return { name: file.suggestedFilename(), json: JSON.parse(await readFile(await file.path(), 'utf8')) };
}

/** Start fresh from the failure page: asks first, says nothing is deleted, then opens an empty profile. */
async function startFresh(page: Page): Promise<void> {
	await page.getByRole('button', { name: 'Start fresh' }).click();
	const dialog = page.getByRole('dialog', { name: 'Start fresh?' });
	await expect(dialog).toContainText('Nothing is deleted');
	await dialog.getByRole('button', { name: 'Start fresh' }).click();
	await expect(page.getByRole('textbox', { name: 'Message' })).toBeVisible();
	await expect(sessionLinks(page)).toHaveCount(0);
	await navigate(page, 'Settings');
	await expect(chosenProfile(page)).toHaveText('Fresh start');
}

test('a tab showing a session whose answering tab closed marks the answer interrupted once that tab is gone, and offers Retry', async ({
	page,
	context
}) => {
	const first = await context.newPage();
	await openApp(first);
	await sendMessage(first, LONG_PROMPT);
	const id = sessionIdFromUrl(first);
	await openApp(page, `/s/${id}`);
	const answer = assistantMessages(page).last();
	await expect(answer).toContainText('Answering in another tab');
	// While the first tab holds the turn lock, nothing is marked, however long this tab watches.
	const seen = (await messageText(answer)).length;
	await expect.poll(async () => (await messageText(answer)).length).toBeGreaterThan(seen + 300);
	await expect(answer).toHaveAttribute('data-status', 'streaming');
	await expect(answer.getByRole('button', { name: 'Retry' })).toHaveCount(0);

	await first.close();
	await expect(answer).toHaveAttribute('data-status', 'incomplete', { timeout: 5_000 });
	await expect(answer).toContainText('Incomplete: the tab that was writing it closed before it finished.');
	await expect.poll(async () => (await messageText(answer)).length).toBeGreaterThan(seen + 300);
	await answer.getByRole('button', { name: 'Retry' }).click();
	await waitForAnswer(page, 'complete', 30_000);
	await expect(messageBody(userMessages(page))).toHaveText([LONG_PROMPT]);
});

test('an upgrade by a newer version in another tab closes this tab’s connection and asks to reload; reloaded, it says why and offers export and a fresh start', async ({
	page,
	context
}) => {
	await openApp(page);
	await sendAndWait(page, 'echo: written before the update');
	// The version a newer release would open.
	const newerVersion = (await rawVersion(page)) + 10;
	const newer = await context.newPage();
	await openPlainPage(newer);
	// The newer version's upgrade is not kept waiting by this tab.
	expect(await upgradeAsNewerCode(newer, DB, newerVersion)).toBe('upgraded');

	const notice = page.getByRole('alert').filter({ hasText: 'Palimpsest was updated in another tab' });
	await expect(notice).toBeVisible();
	// The old code does not reopen the database behind the user's back: nothing typed now is written.
	const box = page.getByRole('textbox', { name: 'Message' });
	await box.fill('echo: typed after the update');
	await box.press('Enter');
	await expect(box).toHaveValue('echo: typed after the update');
	const after = await readStore(newer, DB, 'messages');
	expect(after.version).toBe(newerVersion);
	expect(after.rows).toHaveLength(2);

	await notice.getByRole('button', { name: 'Reload' }).click();
	await expect(page.getByRole('heading', { name: 'Your data was saved by a newer version of Palimpsest' })).toBeVisible();
	await expect(page.getByRole('alert')).toContainText('Nothing has been changed.');
	await expect(page.getByRole('button', { name: 'Reload' })).toBeVisible();

	const download = page.waitForEvent('download');
	await page.getByRole('button', { name: 'Export what is readable' }).click();
	const exported = await downloadedJson(download);
	expect(exported.name).toMatch(/^palimpsest-default-.*-recovered\.json$/);
	expect(exported.json.session_count).toBe(1);
	expect(exported.json.sessions[0].messages.map((m) => m.content)).toEqual(['echo: written before the update', 'written before the update']);
	await expect(page.getByRole('status').filter({ hasText: 'Saved 1 session (2 messages)' })).toBeVisible();

	await startFresh(page);
	const kept = await readStore(newer, DB, 'messages');
	expect(kept.version).toBe(newerVersion);
	expect(kept.rows).toHaveLength(2);
});

test('an upgrade kept waiting by a tab with older code says so, and goes on by itself once that tab lets go', async ({ page, context }) => {
	const older = await context.newPage();
	await openPlainPage(older);
	await holdVersion1Database(older, DB, [
		{ id: 's1', title: 'Kept from version 1', session_key: 'web:default:s1', created_at: 1, last_activity_at: 1, ended_at: null, end_reason: null, parent_session_id: null, parent_kind: null, provider: 'offline', model: 'offline-mini', message_count: 0, token_estimate: 0, next_seq: 0 }
	]);
	await page.goto('/');
	await expect(page.getByRole('heading', { name: 'Waiting for another Palimpsest tab' })).toBeVisible();
	await expect(page.getByRole('status')).toContainText('Close or reload the other Palimpsest tabs');

	await releaseOldConnection(older);
	await expect(page.getByRole('textbox', { name: 'Message' })).toBeVisible();
	await expect(sessionLinks(page)).toHaveText(['Kept from version 1']);
	const version = await rawVersion(page);
	await expect.poll(async () => (await readStore(older, DB, 'sessions')).version).toBe(version);
});

test('a database that cannot be opened gets a page that says why, saves what is readable, and starts fresh without deleting it', async ({ page, context }) => {
	const before = await context.newPage();
	await openApp(before);
	await sendAndWait(before, 'echo: readable still');
	await before.close();

	await damageDatabase(page, DB);
	await page.goto('/');
	await expect(page.getByRole('heading', { name: 'Palimpsest could not open its data' })).toBeVisible();
	await expect(page.getByRole('alert')).toContainText('the data may be damaged');
	await page.getByText('What the browser said').click();
	await expect(page.getByText('UnknownError: Internal error opening backing store for indexedDB.open.')).toBeVisible();

	const download = page.waitForEvent('download');
	await page.getByRole('button', { name: 'Export what is readable' }).click();
	const exported = await downloadedJson(download);
	expect(exported.json.sessions.map((s) => s.session.title)).toEqual(['echo: readable still']);

	await startFresh(page);
	const plain = await context.newPage();
	await openPlainPage(plain);
	await expect.poll(async () => (await readStore(plain, DB, 'sessions')).rows).toHaveLength(1);
});

test('a connection the browser dropped while the tab was in the background is opened again before the next message', async ({ page }) => {
	await installConnectionLoss(page);
	await openApp(page);
	await sendAndWait(page, 'echo: before the tab was hidden');
	const connections = () => page.evaluate((name) => (window as unknown as { __connections: IDBDatabase[] }).__connections.filter((c) => c.name === name).length, DB);
	const opened = await connections();

	await setVisibility(page, 'hidden');
	expect(await loseConnections(page, DB)).toBe(opened);
	await setVisibility(page, 'visible');
	// Coming back, the tab finds the loss and opens a fresh connection before the user acts.
	await expect.poll(connections).toBe(opened + 1);
	await sendAndWait(page, 'echo: after it came back');
	await expect(page.getByRole('alert')).toHaveCount(0);
	await page.reload();
	await expect(messageBody(userMessages(page))).toHaveText(['echo: before the tab was hidden', 'echo: after it came back']);
});
