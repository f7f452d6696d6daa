// Deletions that can be undone: a session deleted on one device waits in Recently deleted on the
// other, where Restore brings it back there and on the device that deleted it, with its messages;
// and many deletions at once are asked about first, nothing deleted until the user answers
// (Keep them restores them on every device; Delete them here moves them to Recently deleted).
import type { Page } from '@playwright/test';
import { expect, test } from './test-base';
import { messageBody, newSession, openApp, sendAndWait, sessionAction, sessionLinks, sidebar, startSelecting, transcript } from './helpers';
import { navigate } from './plugin-helpers';
import { writeRows } from './seed-rows';
import { createDatabase as createDatabaseOn, secondDevice, startSync } from './sync-helpers';
import { useCouchServer } from './test-servers';

const couch = useCouchServer();
const createDatabase = () => createDatabaseOn(couch.url);

/** Settings → Sync → Recently deleted; its list of sessions. */
async function openRecentlyDeleted(page: Page) {
	await navigate(page, 'Settings');
	return page.getByRole('region', { name: 'Recently deleted' }).getByRole('list', { name: 'Recently deleted sessions' }).getByRole('listitem');
}

/** Ticks every session of the list and deletes them, confirming (selection mode ends with it). */
async function deleteAll(page: Page, count: number) {
	await startSelecting(page);
	await sidebar(page).getByRole('listitem').first().getByRole('checkbox', { name: 'Select' }).check();
	const bar = sidebar(page).getByRole('group', { name: 'Selected sessions' });
	await bar.getByRole('button', { name: 'Select all' }).click();
	await expect(bar).toContainText(`${count} selected`);
	await bar.getByRole('button', { name: 'Delete selected' }).click();
	await page.getByRole('dialog', { name: `Delete these ${count} sessions?` }).getByRole('button', { name: 'Delete' }).click();
	await expect(sessionLinks(page)).toHaveCount(0);
	// The deletion ends selection mode.
	await expect(sidebar(page).getByRole('button', { name: 'Select', exact: true })).toHaveAttribute('aria-pressed', 'false');
}

test('a session deleted on one device waits in Recently deleted on the other, where Restore brings it back on both with its messages', async ({ page, browser }) => {
	test.setTimeout(90_000);
	const database = await createDatabase();
	await openApp(page);
	await sendAndWait(page, 'echo: packing list');
	await sendAndWait(page, 'echo: and the tent');
	await newSession(page);
	await sendAndWait(page, 'echo: stays');
	await startSync(page, database);
	const phone = await secondDevice(browser);
	await startSync(phone, database);
	await expect(sessionLinks(phone)).toHaveText(['echo: stays', 'echo: packing list']);
	// Nothing deleted elsewhere yet.
	const rows = await openRecentlyDeleted(phone);
	await expect(phone.getByText('No session was deleted elsewhere lately.')).toBeVisible();

	const row = sidebar(page).getByRole('listitem').filter({ has: page.getByRole('link', { name: 'echo: packing list', exact: true }) });
	await sessionAction(page, row, 'Delete');
	await page.getByRole('dialog', { name: 'Delete this session?' }).getByRole('button', { name: 'Delete' }).click();
	await expect(sessionLinks(page)).toHaveText(['echo: stays']);

	// The phone lists it, with its messages, once the deletion arrives.
	await expect(rows).toHaveCount(1, { timeout: 20_000 });
	await expect(rows).toContainText('echo: packing list');
	await expect(rows).toContainText('4 messages');
	await expect(sessionLinks(phone)).toHaveText(['echo: stays']);
	// What the laptop deleted itself is not its to restore from here.
	await expect(await openRecentlyDeleted(page)).toHaveCount(0);

	await rows.filter({ hasText: 'echo: packing list' }).getByRole('button', { name: 'Restore' }).click();
	await expect(rows).toHaveCount(0);
	await expect(phone.getByRole('status').filter({ hasText: 'Restored' })).toHaveText('Restored echo: packing list.');
	await expect(sessionLinks(phone)).toHaveText(['echo: stays', 'echo: packing list']);
	// ...and on the laptop, which deleted it, with every message.
	await expect(sessionLinks(page)).toHaveText(['echo: stays', 'echo: packing list'], { timeout: 20_000 });
	await sidebar(page).getByRole('link', { name: 'echo: packing list', exact: true }).click();
	const lines = ['echo: packing list', 'packing list', 'echo: and the tent', 'and the tent'];
	await expect(messageBody(transcript(page).getByRole('article'))).toHaveText(lines, { timeout: 20_000 });
	await page.reload();
	await expect(messageBody(transcript(page).getByRole('article'))).toHaveText(lines);
	await phone.context().close();
});

test('more than ten sessions deleted elsewhere are asked about first: Keep them restores them on every device, Delete them here moves them to Recently deleted', async ({ page, browser }) => {
	test.setTimeout(120_000);
	const COUNT = 12;
	const database = await createDatabase();
	await openApp(page);
	// Eleven sessions written straight to the database (no message), and one with messages.
	await writeRows(page, Array.from({ length: COUNT - 1 }, (_, i) => ({ id: `trip-${i}`, title: `Trip ${i}`, messages: 0 })), []);
	await page.reload();
	await sendAndWait(page, 'echo: with messages');
	await expect(sessionLinks(page)).toHaveCount(COUNT);
	await startSync(page, database);
	const phone = await secondDevice(browser);
	await startSync(phone, database);
	await expect(sessionLinks(phone)).toHaveCount(COUNT, { timeout: 20_000 });

	await deleteAll(page, COUNT);
	const asked = phone.getByRole('dialog', { name: `${COUNT} sessions were deleted on another device or on the server` });
	await expect(asked).toBeVisible({ timeout: 20_000 });
	// Nothing is deleted here until the answer.
	await expect(sessionLinks(phone)).toHaveCount(COUNT);
	await asked.getByRole('button', { name: 'Keep them' }).click();
	await expect(asked).toBeHidden();
	// Kept here, and restored on the laptop that deleted them, with their messages.
	await expect(sessionLinks(page)).toHaveCount(COUNT, { timeout: 20_000 });
	await expect(sessionLinks(phone)).toHaveCount(COUNT);
	await sidebar(page).getByRole('link', { name: 'echo: with messages', exact: true }).click();
	await expect(messageBody(transcript(page).getByRole('article'))).toHaveText(['echo: with messages', 'with messages'], { timeout: 20_000 });

	// Deleted again: asked again. Set aside, the question stays in Settings → Sync.
	await deleteAll(page, COUNT);
	await expect(asked).toBeVisible({ timeout: 20_000 });
	await phone.keyboard.press('Escape');
	await expect(asked).toBeHidden();
	await expect(sessionLinks(phone)).toHaveCount(COUNT);
	await navigate(phone, 'Settings');
	const sync = phone.getByRole('region', { name: 'Sync' });
	await expect(sync.getByRole('status', { name: 'Sync status' })).toHaveText(new RegExp(`^${COUNT} sessions were deleted on another device or on the server\\.`));
	await sync.getByRole('button', { name: 'Delete them here' }).click();
	await expect(sync.getByRole('status', { name: 'Sync status' })).toHaveText(/^Up to date/, { timeout: 20_000 });
	await expect(sessionLinks(phone)).toHaveCount(0);
	await expect(await openRecentlyDeleted(phone)).toHaveCount(COUNT);
	// The laptop's deletion holds.
	await expect(sessionLinks(page)).toHaveCount(0);
	await phone.context().close();
});
