// Deleting and archiving sessions in the browser: one on_session_delete per operation (seen in
// the Hook log, and by a plugin in the tab that did it only), other tabs following through live
// queries, sweeps that never touch a session another tab shows, and the chat's own paths
// (/archive, /exit --delete, Branch from here).
import { expect, test, type Page } from './test-base';
import { LONG_PROMPT, assistantMessages, messageBody, newSession, openApp, sendMessage, sessionIdFromUrl, sessionLinks, sidebar, userMessages, waitForAnswer, sessionAction, startSelecting } from './helpers';
import { addPlugin, commandOutputs, navigate, readRows, rowStatus, runCommand } from './plugin-helpers';
import { usePluginOrigins } from './test-servers';

const origins = usePluginOrigins();

function row(page: Page, title: string) {
	return sidebar(page)
		.getByRole('listitem')
		.filter({ has: page.getByRole('link', { name: title, exact: true }) });
}

/** Hook log rows of on_session_delete (the Plugins page must be open). */
function deletionRows(page: Page) {
	return page
		.getByRole('region', { name: 'Hook log' })
		.getByRole('row')
		.filter({ has: page.getByRole('cell', { name: 'on_session_delete', exact: true }) });
}

async function createSessions(page: Page, titles: string[]): Promise<string[]> {
	const ids: string[] = [];
	for (const [i, title] of titles.entries()) {
		if (i > 0) await newSession(page);
		await sendMessage(page, title);
		await waitForAnswer(page);
		ids.push(sessionIdFromUrl(page));
	}
	return ids;
}

async function typeCommand(page: Page, text: string): Promise<void> {
	const box = page.getByRole('textbox', { name: 'Message' });
	await box.fill(text);
	await box.press('Enter');
}

test('three selected sessions are deleted as one operation: one event with three ids, gone after a reload', async ({ page }) => {
	await openApp(page);
	const titles = ['echo: one', 'echo: two', 'echo: three', 'echo: four'];
	const ids = await createSessions(page, titles);
	await expect(sessionLinks(page)).toHaveText([...titles].reverse());

	// Escape cancels a deletion; the dialog names the session.
	await sessionAction(page, row(page, 'echo: four'), 'Delete');
	const single = page.getByRole('dialog', { name: 'Delete this session?' });
	await expect(single).toContainText('echo: four');
	await page.keyboard.press('Escape');
	await expect(single).toBeHidden();
	await expect(sessionLinks(page)).toHaveCount(4);

	await startSelecting(page);
	for (const title of titles.slice(0, 3)) await row(page, title).getByRole('checkbox', { name: 'Select' }).check();
	const bar = sidebar(page).getByRole('group', { name: 'Selected sessions' });
	await expect(bar).toContainText('3 selected');
	await bar.getByRole('button', { name: 'Delete selected' }).click();
	await page.getByRole('dialog', { name: 'Delete these 3 sessions?' }).getByRole('button', { name: 'Delete' }).click();
	await expect(sessionLinks(page)).toHaveText(['echo: four']);
	await expect(bar).toBeHidden();

	await navigate(page, 'Plugins');
	const events = deletionRows(page);
	await expect(events).toHaveCount(1);
	await expect(events.getByRole('cell', { name: 'no plugin listens', exact: true })).toBeVisible();
	await expect(events).toContainText('reason=delete');
	await expect(events).toContainText('deleted_ids=[3]');

	await page.reload();
	await expect(sessionLinks(page)).toHaveText(['echo: four']);
	const stored = await readRows(page, 'palimpsest-default', 'sessions');
	expect(stored.map((s) => s.id)).toEqual([ids[3]]);
	const messages = await readRows(page, 'palimpsest-default', 'messages');
	expect(new Set(messages.map((m) => m.session_id))).toEqual(new Set([ids[3]]));
});

test('a deletion fires only in the tab that made it; the other tab’s list follows and says the session is gone', async ({ context, page }) => {
	await openApp(page);
	await addPlugin(page, `${origins.cors}/deletion-log.js`, 'Deletion log');
	await navigate(page, 'Chat');
	const [keep, doomed] = await createSessions(page, ['echo: keep me', 'echo: delete me']);

	// The second tab has the plugin running before anything is deleted, and shows the doomed session.
	const second = await context.newPage();
	await second.goto('/plugins');
	await expect(rowStatus(second.getByRole('listitem', { name: 'Deletion log', exact: true }), 'Loaded')).toBeVisible();
	await sidebar(second).getByRole('link', { name: 'echo: delete me', exact: true }).click();
	await expect(messageBody(userMessages(second))).toHaveText(['echo: delete me']);

	await sidebar(page).getByRole('link', { name: 'echo: keep me', exact: true }).click();
	await expect(page).toHaveURL(new RegExp(`/s/${keep}$`));
	await sessionAction(page, row(page, 'echo: delete me'), 'Delete');
	await page.getByRole('dialog', { name: 'Delete this session?' }).getByRole('button', { name: 'Delete' }).click();
	await expect(sessionLinks(page)).toHaveText(['echo: keep me']);

	await expect(sessionLinks(second)).toHaveText(['echo: keep me']);
	await expect(second.getByRole('alert')).toContainText('This session no longer exists.');

	await expect(await runCommand(page, '/deletions')).toContainText(`delete:${doomed}:1`);
	await second.getByRole('link', { name: 'Start a new session' }).click();
	await expect(await runCommand(second, '/deletions')).toContainText('(none)');
});

test('a session open in another tab is never swept; once no tab shows it, clean-up removes it', async ({ context, page }) => {
	await openApp(page);
	const [kept] = await createSessions(page, ['echo: kept']);
	// A session without a message: /new ends the one with the message and goes on in it...
	await typeCommand(page, '/new');
	await expect(page).not.toHaveURL(new RegExp(`/s/${kept}$`));
	await expect(page).toHaveURL(/\/s\/[^/]+$/);
	const id = sessionIdFromUrl(page);
	// ...shown in a second tab...
	const second = await context.newPage();
	await openApp(second, `/s/${id}`);
	await expect(second.getByRole('heading', { level: 1 })).toHaveText('New session');
	// ...then ended in the first: it qualifies for the empty sweep, but a tab shows it.
	await typeCommand(page, '/exit');
	await expect(page).toHaveURL(/\/$/);
	await expect(sessionLinks(page)).toHaveCount(2);

	await navigate(page, 'Settings');
	const status = page.getByRole('status', { name: 'Maintenance status' });
	await page.getByRole('button', { name: 'Clean up now' }).click();
	await expect(status).toHaveText('Nothing to clean up.');
	await expect(sessionLinks(page)).toHaveCount(2);
	await expect(sessionLinks(second)).toHaveCount(2);

	await second.close();
	// Once the closed tab's hold on it is gone (a pass just before may still have seen it).
	await expect(async () => {
		await page.getByRole('button', { name: 'Clean up now' }).click();
		await expect(status).not.toHaveText('Cleaning up…');
		// The session with a message stays.
		await expect(sessionLinks(page)).toHaveText(['echo: kept'], { timeout: 2000 });
	}).toPass();
	// Whichever pass took it (this one, or an automatic one just before), the sidebar says so.
	const notice = sidebar(page).getByRole('status', { name: 'Clean-up notice' });
	await expect(notice).toContainText('Removed 1 empty session.');
	await notice.getByRole('button', { name: 'Dismiss' }).click();
	await expect(notice).toBeHidden();
	await navigate(page, 'Plugins');
	await expect(deletionRows(page)).toHaveCount(1);
	await expect(deletionRows(page)).toContainText(`session_id=${id} reason=empty_sweep`);
});

test('archive and unarchive, /archive, Branch from here and /exit --delete', async ({ page }) => {
	await openApp(page);
	const [first] = await createSessions(page, ['echo: first']);

	// Branch from the answer: a new session holding the conversation up to there.
	await assistantMessages(page).last().getByRole('button', { name: 'Branch from here' }).click();
	await expect(page).not.toHaveURL(new RegExp(`/s/${first}$`));
	await expect(page.getByRole('heading', { level: 1 })).toHaveText('echo: first (branch)');
	await expect(messageBody(userMessages(page))).toHaveText(['echo: first']);
	await expect(assistantMessages(page)).toHaveCount(1);
	await expect(sessionLinks(page)).toHaveCount(2);

	// Archive: out of the list, into Archived; Unarchive brings it back.
	await sessionAction(page, row(page, 'echo: first'), 'Archive');
	await expect(sessionLinks(page)).toHaveText(['echo: first (branch)']);
	await sidebar(page).getByRole('link', { name: 'Archived', exact: true }).click();
	const archived = page.getByRole('list', { name: 'Archived sessions' });
	await expect(archived.getByRole('link')).toHaveText(['echo: first']);
	await archived.getByRole('listitem').getByRole('button', { name: 'Unarchive' }).click();
	await expect(archived.getByRole('listitem')).toHaveCount(0);
	await expect(sessionLinks(page)).toHaveCount(2);

	// /archive on the branch: archived, and the chat moves on to a fresh draft.
	await sidebar(page).getByRole('link', { name: 'echo: first (branch)', exact: true }).click();
	await expect(page.getByRole('heading', { level: 1 })).toHaveText('echo: first (branch)');
	await typeCommand(page, '/archive');
	await expect(page).toHaveURL(/\/$/);
	await expect(sessionLinks(page)).toHaveText(['echo: first']);

	// /exit --delete asks first: Escape keeps the session, Delete ends and deletes it.
	await sidebar(page).getByRole('link', { name: 'echo: first', exact: true }).click();
	await expect(page.getByRole('heading', { level: 1 })).toHaveText('echo: first');
	await expect(messageBody(userMessages(page))).toHaveText(['echo: first']);
	await typeCommand(page, '/exit --delete');
	const dialog = page.getByRole('dialog', { name: 'Delete this session?' });
	await expect(dialog).toContainText('echo: first');
	await page.keyboard.press('Escape');
	await expect(commandOutputs(page).last()).toContainText('Kept this session');
	await typeCommand(page, '/exit --delete');
	await dialog.getByRole('button', { name: 'Delete' }).click();
	await expect(page).toHaveURL(/\/$/);
	await expect(sessionLinks(page)).toHaveCount(0);

	// Archive fired twice (the button, /archive), unarchive never, the deletion once.
	await navigate(page, 'Plugins');
	const events = deletionRows(page);
	await expect(events).toHaveCount(3);
	await expect(events.filter({ hasText: 'reason=archive' })).toHaveCount(2);
	await expect(events.filter({ hasText: `session_id=${first} reason=delete` })).toHaveCount(1);
});

test('deleting a session while its answer streams stops the answer; nothing brings the session back', async ({ page }) => {
	await openApp(page);
	await sendMessage(page, LONG_PROMPT);
	const id = sessionIdFromUrl(page);
	await expect(assistantMessages(page).last()).toHaveAttribute('data-status', 'streaming');

	await sessionAction(page, row(page, LONG_PROMPT), 'Delete');
	await page.getByRole('dialog', { name: 'Delete this session?' }).getByRole('button', { name: 'Delete' }).click();
	await expect(page).toHaveURL(/\/$/);
	await expect(sessionLinks(page)).toHaveCount(0);
	// The answer's work has let go of the session: it is over, not writing on in the background.
	await expect
		.poll(() => page.evaluate(async () => (await navigator.locks.query()).held?.filter((l) => l.name?.startsWith('palimpsest-work:')).length))
		.toBe(0);
	await expect.poll(() => readRows(page, 'palimpsest-default', 'sessions')).toEqual([]);
	await expect.poll(async () => (await readRows(page, 'palimpsest-default', 'messages')).filter((m) => m.session_id === id)).toEqual([]);
	await page.reload();
	await expect(page.getByRole('textbox', { name: 'Message' })).toBeVisible();
	await expect(sessionLinks(page)).toHaveCount(0);
});

test('Repair profiles moves a session filed in the wrong profile into its own profile', async ({ page }) => {
	await openApp(page);
	const [kept, misfiled] = await createSessions(page, ['echo: mine', 'echo: belongs to work']);
	// A second profile exists, and one session of this database records it as its owner.
	await page.evaluate(async (id) => {
		const open = (name: string) =>
			new Promise<IDBDatabase>((resolve, reject) => {
				const request = indexedDB.open(name);
				request.onsuccess = () => resolve(request.result);
				request.onerror = () => reject(request.error);
			});
		const write = (db: IDBDatabase, store: string, change: (s: IDBObjectStore) => void) =>
			new Promise<void>((resolve, reject) => {
				const tx = db.transaction(store, 'readwrite');
				change(tx.objectStore(store));
				tx.oncomplete = () => resolve();
				tx.onerror = () => reject(tx.error);
			});
		const meta = await open('palimpsest-meta');
		await write(meta, 'profiles', (s) => s.put({ name: 'work', user_id: 'web-user-work', user_name: 'You', created_at: Date.now() }));
		meta.close();
		const db = await open('palimpsest-default');
		await write(db, 'sessions', (s) => {
			const get = s.get(id);
			get.onsuccess = () => s.put({ ...get.result, profile: 'work' });
		});
		db.close();
	}, misfiled);

	// The session a tab shows is in use (and left for later): show the other one.
	await sidebar(page).getByRole('link', { name: 'echo: mine', exact: true }).click();
	await expect(page).toHaveURL(new RegExp(`/s/${kept}$`));
	await navigate(page, 'Settings');
	await page.getByRole('button', { name: 'Repair profiles' }).click();
	await expect(page.getByRole('status', { name: 'Maintenance status' })).toHaveText('Moved 1 session to “work”.');
	await expect(sessionLinks(page)).toHaveText(['echo: mine']);
	await expect.poll(async () => (await readRows(page, 'palimpsest-work', 'sessions')).map((s) => [s.id, s.profile])).toEqual([[misfiled, 'work']]);
	await expect.poll(async () => (await readRows(page, 'palimpsest-work', 'messages')).filter((m) => m.session_id === misfiled)).toHaveLength(2);
	await expect.poll(async () => (await readRows(page, 'palimpsest-default', 'sessions')).map((s) => s.id)).toEqual([kept]);
	await navigate(page, 'Plugins');
	await expect(deletionRows(page)).toHaveCount(1);
	await expect(deletionRows(page)).toContainText(`session_id=${misfiled} reason=profile_repair`);
});
