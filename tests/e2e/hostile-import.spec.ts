// An imported file is untrusted: its links cannot reach your sessions, a deletion asks about
// every session it takes, a row that cannot be drawn shows as one error row instead of
// emptying the session, and a file too large to import is refused before it is read.
import { expect, test, type Locator, type Page } from './test-base';
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
	await expect(status(page)).toHaveText('Imported 1 session (1 message). 1 link to a session not imported from this file was removed.');

	await sessionAction(page, row(page, 'Imported trap'), 'Delete');
	const dialog = page.getByRole('dialog', { name: 'Delete this session?' });
	await expect(dialog).toContainText('“Imported trap” and all its messages will be deleted.');
	await expect(dialog).not.toContainText('my own work');
	await dialog.getByRole('button', { name: 'Delete' }).click();
	await expect(sessionLinks(page)).toHaveText(['echo: my own work']);

	await expect.poll(async () => (await readRows(page, 'palimpsest-default', 'sessions')).map((s) => s.id)).toEqual([mine]);
	await expect.poll(async () => (await readRows(page, 'palimpsest-default', 'messages')).map((m) => m.content)).toEqual(['echo: my own work', 'my own work']);
});

/** A summary row that says the session continues `earlier` (as a compaction that rotated writes it). */
function continuing(id: string, title: string, earlier: string | null) {
	const entry = sessionEntry(id, title, earlier === null ? {} : { parent_session_id: earlier, parent_kind: 'compression' });
	const at = Date.now();
	const marker = { id: `${id}-op`, kind: 'summarize', reason: 'manual', before_tokens: 900, after_tokens: 40, messages_removed: 4, at, ...(earlier === null ? {} : { old_session_id: earlier }) };
	entry.messages = [{ ...entry.messages[0], role: 'assistant', kind: 'summary', content: `Summary of ${title}`, compaction: marker } as (typeof entry.messages)[number]];
	return entry;
}

/** Writes `row` into a store of the profile's database past the app, as an earlier version could have left it. */
async function putRow(page: Page, store: string, row: Row): Promise<void> {
	await page.evaluate(
		([store, row]) =>
			new Promise<void>((resolve, reject) => {
				const request = indexedDB.open('palimpsest-default');
				request.onerror = () => reject(request.error);
				request.onsuccess = () => {
					const db = request.result;
					const tx = db.transaction(store, 'readwrite');
					tx.objectStore(store).put(row);
					tx.oncomplete = () => {
						db.close();
						resolve();
					};
					tx.onerror = () => reject(tx.error);
				};
			}),
		[store, row] as const
	);
}

const marker = (page: Page) => transcript(page).getByRole('region', { name: 'Context compacted' });

test('a file holding a copy of my session cannot continue it: the copy is skipped and the links to mine are cut', async ({ page }) => {
	await openApp(page);
	await sendMessage(page, 'echo: my own work');
	await waitForAnswer(page);
	const mine = sessionIdFromUrl(page);

	await importEntries(page, [sessionEntry(mine, 'A copy of yours'), continuing('trap', 'Imported trap', mine)]);
	await expect(status(page)).toHaveText(
		'Imported 1 session (1 message). Skipped 1 session already in this profile (1 message). 2 links to sessions not imported from this file were removed.'
	);
	await row(page, 'Imported trap').getByRole('link').click();
	await expect(marker(page)).toContainText('Context compacted');
	await expect(marker(page).getByRole('button', { name: 'Undo compaction' })).toBeVisible();
	await expect(marker(page).getByRole('button', { name: 'Continue in the earlier session' })).toHaveCount(0);
	await expect
		.poll(async () => (await readRows(page, 'palimpsest-default', 'sessions')).filter((s) => s.id === 'trap'))
		.toEqual([expect.objectContaining({ parent_session_id: null, parent_kind: null })]);
	// Mine is as it was; the file's copy of it is nowhere.
	await expect(sidebar(page).getByRole('link', { name: 'echo: my own work', exact: true })).toHaveCount(1);
	await expect(sidebar(page).getByRole('link', { name: 'A copy of yours' })).toHaveCount(0);
});

test('Continue in the earlier session never adds to a session of another origin: it says why and changes nothing', async ({ page }) => {
	await openApp(page);
	await sendMessage(page, 'echo: my own work');
	await waitForAnswer(page);
	const mine = sessionIdFromUrl(page);
	await importEntries(page, [continuing('trap', 'Imported trap', null)]);
	await expect(status(page)).toHaveText('Imported 1 session (1 message).');
	// The summary names my session as the earlier one, as an import by an earlier version could leave it.
	const [summary] = (await readRows(page, 'palimpsest-default', 'messages')).filter((m) => m.session_id === 'trap');
	await putRow(page, 'messages', { ...summary, compaction: { ...(summary.compaction as Row), old_session_id: mine } });
	const before = await readRows(page, 'palimpsest-default', 'messages');

	await openApp(page, '/s/trap');
	await marker(page).getByRole('button', { name: 'Continue in the earlier session' }).click();
	await expect(marker(page).getByRole('alert')).toHaveText(
		'This session and the earlier one did not come from the same place (one was imported, or they came with different imports), so what was said here cannot be added to it. Nothing changed; the conversation goes on here.'
	);
	await expect(page).toHaveURL(/\/s\/trap$/);
	// The same messages, word for word (a token count the app caches on a row meanwhile is no change).
	await expect.poll(async () => withoutCounts(await readRows(page, 'palimpsest-default', 'messages'))).toEqual(withoutCounts(before));
	await expect
		.poll(() => readRows(page, 'palimpsest-default', 'sessions'))
		.toEqual(expect.arrayContaining([expect.objectContaining({ id: 'trap', ended_at: null }), expect.objectContaining({ id: mine, message_count: 2 })]));
});

/** `scope` shows `title` in an element of its own, isolated: its direction its own, reordering nothing around it. */
async function expectIsolated(scope: Locator, title: string): Promise<void> {
	const shown = scope.locator('[dir="auto"]').filter({ hasText: title });
	await expect(shown).toHaveCount(1);
	await expect(shown).toHaveJSProperty('textContent', title);
	await expect.poll(() => shown.evaluate((element) => getComputedStyle(element).unicodeBidi)).toBe('isolate');
}

test('a title with a bidi override and a bell: both left out on import and in Rename, and each title shown isolated', async ({ page }) => {
	await openApp(page);
	await sendMessage(page, 'echo: my own work');
	await waitForAnswer(page);
	await importEntries(page, [sessionEntry('odd', 'Invoice \u202Efdp.exe\u0007')]);
	await expect(status(page)).toHaveText('Imported 1 session (1 message).');
	const imported = sidebar(page).getByRole('link', { name: 'Invoice fdp.exe', exact: true });
	await expectIsolated(imported, 'Invoice fdp.exe');

	await sessionAction(page, row(page, 'Invoice fdp.exe'), 'Rename');
	const input = sidebar(page).getByRole('textbox', { name: 'Session title' });
	await expect(input).toHaveAttribute('dir', 'auto');
	await input.fill('Plan \u202Eevil\u0007 copy');
	await input.press('Enter');
	const renamed = sidebar(page).getByRole('link', { name: 'Plan evil copy', exact: true });
	await expectIsolated(renamed, 'Plan evil copy');
	await expect(sidebar(page)).not.toContainText('\u202E');
	await expect(sidebar(page)).not.toContainText('\u0007');

	// The header, and the question before a deletion.
	await renamed.click();
	await expectIsolated(page.getByRole('heading', { level: 1 }), 'Plan evil copy');
	await expectIsolated(sidebar(page).getByRole('link', { name: 'echo: my own work', exact: true }), 'echo: my own work');
	await sessionAction(page, row(page, 'Plan evil copy'), 'Delete');
	const dialog = page.getByRole('dialog', { name: 'Delete this session?' });
	await expect(dialog).toContainText('“Plan evil copy” and all its messages will be deleted.');
	await expectIsolated(dialog, 'Plan evil copy');
	await dialog.getByRole('button', { name: 'Cancel' }).click();
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

/** Rows without the token count the app caches on them as it counts (`tokens`, `encoding`). */
function withoutCounts(rows: Row[]): Row[] {
	return rows.map(({ tokens: _tokens, encoding: _encoding, ...row }) => row);
}
