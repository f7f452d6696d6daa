// An imported file is untrusted: its links cannot reach your sessions, a deletion asks about
// every session it takes, a row that cannot be drawn shows as one error row instead of
// emptying the session, and a file too large to import is refused before it is read.
import { expect, test, type Page } from './test-base';
import { mkdtemp, open, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openApp, sendMessage, sessionAction, sessionIdFromUrl, sessionLinks, sidebar, transcript, userMessages, waitForAnswer } from './helpers';
import { navigate, readRows } from './plugin-helpers';

let dir: string;
test.beforeEach(async () => {
	dir = await mkdtemp(join(tmpdir(), 'palimpsest-hostile-'));
});
test.afterEach(async () => {
	await rm(dir, { recursive: true, force: true });
});

const status = (page: Page) => page.getByRole('status', { name: 'Transfer status' });

async function importPath(page: Page, path: string): Promise<void> {
	await navigate(page, 'Settings');
	const chooser = page.waitForEvent('filechooser');
	await page.getByRole('button', { name: 'Import', exact: true }).click();
	await (await chooser).setFiles(path);
}

type Row = Record<string, unknown>;

function sessionEntry(id: string, title: string, link: Row = {}) {
	const at = Date.now();
	return {
		session: {
			id, profile: 'elsewhere', title, title_source: 'user', session_key: `web:elsewhere:${id}`, created_at: at, last_activity_at: at,
			ended_at: null, end_reason: null, parent_session_id: null, parent_kind: null, archived: 0, pinned: 0, provider: 'offline',
			model: 'offline-mini', message_count: 1, token_estimate: 2, next_seq: 1, compaction: { failures: 0, cooldown_until: 0, turns_since_micro: 0 },
			...link
		},
		messages: [{ session_id: id, seq: 0, id: `${id}-0`, role: 'user', content: `words of ${title}`, status: 'complete', kind: 'message', active: 1, compacted_by: null, created_at: at }]
	};
}

async function importEntries(page: Page, entries: ReturnType<typeof sessionEntry>[]): Promise<void> {
	const path = join(dir, 'sessions.json');
	await writeFile(path, JSON.stringify({ format: 'palimpsest-sessions', version: 1, exported_at: 1, profile: 'elsewhere', session_count: entries.length, message_count: entries.length, sessions: entries }));
	await importPath(page, path);
}

function row(page: Page, title: string) {
	return sidebar(page).getByRole('listitem').filter({ has: page.getByRole('link', { name: title, exact: true }) });
}

test('a file that links to my session: the link is cut, and deleting what it brought leaves my session', async ({ page }) => {
	await openApp(page);
	await sendMessage(page, 'echo: my own work');
	await waitForAnswer(page);
	const mine = sessionIdFromUrl(page);

	await importEntries(page, [sessionEntry('trap', 'Imported trap', { parent_session_id: mine, parent_kind: 'compression' })]);
	await expect(status(page)).toHaveText('Imported 1 session (1 message). 1 link to a session outside this file was removed.');

	await sessionAction(page, row(page, 'Imported trap'), 'Delete');
	const dialog = page.getByRole('dialog', { name: 'Delete this session?' });
	await expect(dialog).toContainText('“Imported trap” and all its messages will be deleted.');
	await expect(dialog).not.toContainText('my own work');
	await dialog.getByRole('button', { name: 'Delete' }).click();
	await expect(sessionLinks(page)).toHaveText(['echo: my own work']);

	expect((await readRows(page, 'palimpsest-default', 'sessions')).map((s) => s.id)).toEqual([mine]);
	const messages = await readRows(page, 'palimpsest-default', 'messages');
	expect(messages.map((m) => m.content)).toEqual(['echo: my own work', 'my own work']);
});

test('deleting one link of an imported conversation lists every session it takes', async ({ page }) => {
	await openApp(page);
	await sendMessage(page, 'echo: my own work');
	await waitForAnswer(page);

	await importEntries(page, [
		sessionEntry('trip-1', 'Trip, part one', { ended_at: Date.now(), end_reason: 'compression' }),
		sessionEntry('trip-2', 'Trip, part two', { parent_session_id: 'trip-1', parent_kind: 'compression' })
	]);
	await expect(status(page)).toHaveText('Imported 2 sessions (2 messages).');

	await sessionAction(page, row(page, 'Trip, part two'), 'Delete');
	const dialog = page.getByRole('dialog', { name: 'Delete 2 sessions?' });
	await expect(dialog.getByRole('list', { name: 'Sessions to delete' }).getByRole('listitem')).toHaveText([
		'“Trip, part two”',
		'“Trip, part one” (earlier part of the conversation)'
	]);
	await dialog.getByRole('button', { name: 'Delete' }).click();
	await expect(sessionLinks(page)).toHaveText(['echo: my own work']);
});

test('a row that cannot be drawn shows as an error row; the rest of the session stays readable', async ({ page, pageErrors }) => {
	await openApp(page);
	await sendMessage(page, 'echo: still here');
	await waitForAnswer(page);
	const id = sessionIdFromUrl(page);
	// A damaged row, written past the app (as a hand-edited database or an old bug could leave it).
	await page.evaluate(
		(id) =>
			new Promise<void>((resolve, reject) => {
				const request = indexedDB.open('palimpsest-default');
				request.onerror = () => reject(request.error);
				request.onsuccess = () => {
					const db = request.result;
					const tx = db.transaction('messages', 'readwrite');
					tx.objectStore('messages').put({
						session_id: id, seq: 2, id: 'broken', role: 'assistant', content: 'calling', status: 'complete', kind: 'message',
						active: 1, compacted_by: null, created_at: Date.now(), tool_calls: [null], injected: [null]
					});
					tx.oncomplete = () => {
						db.close();
						resolve();
					};
					tx.onerror = () => reject(tx.error);
				};
			}),
		id
	);
	await page.reload();
	await expect(userMessages(page)).toHaveCount(1);
	await expect(transcript(page).getByRole('article', { name: 'Assistant' })).toHaveCount(1);
	await expect(transcript(page).getByRole('article', { name: 'Unreadable message' })).toHaveText(/^This message could not be shown: .+/);
	expect(pageErrors.seen).toEqual([]);
});

test('a file larger than an import takes is refused at once, saying both sizes', async ({ page }) => {
	await openApp(page);
	const path = join(dir, 'huge.json');
	// A sparse file: its size is all that matters, as nothing of it is read.
	const file = await open(path, 'w');
	await file.truncate(300 * 1024 * 1024);
	await file.close();
	await importPath(page, path);
	await expect(status(page)).toHaveText('Import refused: This file is 300 MB; Palimpsest imports files of up to 256 MB. Export fewer sessions at a time (Chosen sessions) and import each file. Nothing was changed.');
});
