// Export and import in a real browser: files go through the browser's download and file
// chooser, the work runs in the transfer worker, and a bad file changes nothing.
import { expect, test, type Page } from './test-base';
import { readFile, writeFile, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { newSession, openApp, sendMessage, sessionLinks, transcript, waitForAnswer } from './helpers';
import { navigate, readRows } from './plugin-helpers';
import { createProfile } from './profile-helpers';
import { sendWhenStorageFull } from './storage-helpers';

let dir: string;

test.beforeEach(async () => {
	dir = await mkdtemp(join(tmpdir(), 'palimpsest-export-'));
});

test.afterEach(async () => {
	await rm(dir, { recursive: true, force: true });
});

/** Presses Export and returns the downloaded file's name and text. */
async function exportFile(page: Page): Promise<{ name: string; text: string }> {
	const download = page.waitForEvent('download');
	await page.getByRole('button', { name: 'Export', exact: true }).click();
	const file = await download;
	const path = join(dir, file.suggestedFilename());
	await file.saveAs(path);
	return { name: file.suggestedFilename(), text: await readFile(path, 'utf8') };
}

/** Chooses a file through Import and waits for the outcome. */
async function importFile(page: Page, name: string, text: string): Promise<void> {
	const path = join(dir, name);
	await writeFile(path, text);
	const chooser = page.waitForEvent('filechooser');
	await page.getByRole('button', { name: 'Import', exact: true }).click();
	await (await chooser).setFiles(path);
}

const status = (page: Page) => page.getByRole('status', { name: 'Transfer status' });

test('export all as JSON, import into a fresh profile: the same sessions and messages; a second import adds nothing; bad files change nothing', async ({ page }) => {
	await openApp(page);
	await sendMessage(page, 'echo: alpha');
	await waitForAnswer(page);
	await newSession(page);
	await sendMessage(page, 'echo: beta');
	await waitForAnswer(page);
	await sendMessage(page, 'echo: gamma');
	await waitForAnswer(page);

	await navigate(page, 'Settings');
	await expect(page.getByLabel('Last export')).toHaveText('No export yet from this profile.');
	const exported = await exportFile(page);
	expect(exported.name).toMatch(/^palimpsest-default-\d{4}-\d{2}-\d{2}\.json$/);
	await expect(status(page)).toHaveText(`Exported 2 sessions (6 messages) as JSON: ${exported.name}`);
	await expect(page.getByLabel('Last export')).toContainText('(2 sessions, JSON)');
	await page.reload();
	await expect(page.getByLabel('Last export')).toContainText('(2 sessions, JSON)');
	const sourceSessions = await readRows(page, 'palimpsest-default', 'sessions');
	const sourceMessages = await readRows(page, 'palimpsest-default', 'messages');

	await createProfile(page, 'Restored');
	await expect(sessionLinks(page)).toHaveCount(0);
	await importFile(page, exported.name, exported.text);
	await expect(status(page)).toHaveText('Imported 2 sessions (6 messages).');
	await expect(sessionLinks(page)).toHaveText(['echo: beta', 'echo: alpha']);
	// Both came in with one import, which marks them so a deletion never crosses into another origin.
	await expect.poll(() => readRows(page, 'palimpsest-restored', 'sessions')).toEqual(sourceSessions.map((row) => ({ ...row, profile: 'restored', import_id: expect.any(String) })));
	const sessions = await readRows(page, 'palimpsest-restored', 'sessions');
	expect(new Set(sessions.map((row) => row.import_id)).size).toBe(1);
	// Every field comes back but the recipe of what each answer's request carried: it points into
	// the profile that sent it, so an imported answer says that request is not available.
	await expect.poll(() => readRows(page, 'palimpsest-restored', 'messages')).toEqual(sourceMessages.map(({ sent: _sent, ...row }) => row));
	await sessionLinks(page).filter({ hasText: 'echo: beta' }).click();
	await expect(transcript(page).getByRole('article')).toHaveCount(4);
	await expect(transcript(page)).toContainText('gamma');

	await navigate(page, 'Settings');
	await importFile(page, exported.name, exported.text);
	await expect(status(page)).toHaveText('Nothing new to import: all 2 sessions in the file are already in this profile.');

	const before = await readRows(page, 'palimpsest-restored', 'messages');
	await importFile(page, 'cut.json', exported.text.slice(0, Math.floor(exported.text.length / 2)));
	await expect(status(page)).toHaveText(/^Import refused: The file is not a complete Palimpsest export: it is not valid JSON \(it may have been cut short.*Nothing was changed\.$/);
	const future = JSON.parse(exported.text);
	future.version = 2;
	future.sessions[0].session.id = 'new-id';
	await importFile(page, 'future.json', JSON.stringify(future));
	await expect(status(page)).toHaveText(/^Import refused: This export was made by a newer Palimpsest \(file format version 2; this app reads up to version 1\)\. Update Palimpsest to import it\. Nothing was changed\.$/);
	await importFile(page, 'foreign.json', JSON.stringify({ conversations: [] }));
	await expect(status(page)).toHaveText(/^Import refused: This is not a Palimpsest sessions export/);
	await expect.poll(() => readRows(page, 'palimpsest-restored', 'messages')).toEqual(before);
	await expect.poll(() => readRows(page, 'palimpsest-restored', 'sessions')).toHaveLength(2);
});

test('export chosen sessions as Markdown: only those, readable', async ({ page }) => {
	await openApp(page);
	await sendMessage(page, 'echo: keep this one');
	await waitForAnswer(page);
	await newSession(page);
	await sendMessage(page, 'echo: leave this out');
	await waitForAnswer(page);

	await navigate(page, 'Settings');
	await page.getByRole('radio', { name: 'Chosen sessions' }).check();
	await expect(page.getByRole('button', { name: 'Export', exact: true })).toBeDisabled();
	await page.getByRole('checkbox', { name: 'echo: keep this one' }).check();
	await page.getByRole('radio', { name: 'Markdown' }).check();
	const exported = await exportFile(page);
	expect(exported.name).toMatch(/\.md$/);
	expect(exported.text).toMatch(/^# Palimpsest sessions\n\nExported from profile “Default” on .*: 1 session\./);
	expect(exported.text).toContain('## echo: keep this one');
	expect(exported.text).toMatch(/### You\n\necho: keep this one\n\n### Assistant\n\nkeep this one/);
	expect(exported.text).not.toContain('leave this out');
	await expect(page.getByLabel('Last export')).toContainText('(1 session, Markdown)');
});

test('when storage is full, the chat error offers Export, which saves every session', async ({ page }) => {
	await openApp(page);
	await sendMessage(page, 'echo: saved before the disk filled up');
	await waitForAnswer(page);
	// From here on the page's writes fail as a full disk makes them fail (the worker's reads still work).
	await page.evaluate(() => {
		const full = () => {
			throw new DOMException('The quota has been exceeded.', 'QuotaExceededError');
		};
		IDBObjectStore.prototype.add = full;
		IDBObjectStore.prototype.put = full;
	});
	const { box, alert } = await sendWhenStorageFull(page, 'this will not fit');
	await expect(box).toHaveValue('this will not fit');
	const download = page.waitForEvent('download');
	await alert.getByRole('button', { name: 'Export' }).click();
	const file = await download;
	const path = join(dir, file.suggestedFilename());
	await file.saveAs(path);
	const saved = JSON.parse(await readFile(path, 'utf8'));
	expect(saved.session_count).toBe(1);
	expect(saved.sessions[0].messages[0].content).toBe('echo: saved before the disk filled up');
	await expect(alert.getByRole('link', { name: 'Settings' })).toHaveAttribute('href', '/settings#export');
});

/** A file of `sessions` sessions of `perSession` short messages each, as another profile exports them. */
function largeFile(sessions: number, perSession: number) {
	const at = Date.now();
	const entries = Array.from({ length: sessions }, (_, i) => {
		const id = `moved-${i}`;
		return {
			session: {
				id, profile: 'elsewhere', title: `Moved session ${i}`, title_source: 'user', session_key: `web:elsewhere:${id}`, created_at: at + i, last_activity_at: at + i,
				ended_at: null, end_reason: null, parent_session_id: i ? `moved-${i - 1}` : null, parent_kind: i ? 'branch' : null, archived: 0, pinned: 0,
				provider: 'offline', model: 'offline-mini', message_count: perSession, token_estimate: 0, next_seq: perSession,
				compaction: { failures: 0, cooldown_until: 0, turns_since_micro: 0 }
			} as Record<string, unknown>,
			messages: Array.from({ length: perSession }, (_, seq) => ({
				session_id: id, seq, id: `${id}-${seq}`, role: seq % 2 ? 'assistant' : 'user', content: `Message ${seq} of session ${i}`,
				status: 'complete', kind: 'message', active: 1, compacted_by: null, created_at: at
			}) as Record<string, unknown>)
		};
	});
	return { format: 'palimpsest-sessions', version: 1, exported_at: at, profile: 'elsewhere', session_count: sessions, message_count: sessions * perSession, sessions: entries };
}

/** Every text the transfer status shows from now on, recorded in the page as it changes. */
async function recordStatus(page: Page): Promise<() => Promise<string[]>> {
	await page.evaluate(() => {
		const seen: string[] = [];
		(window as unknown as { statusTexts: string[] }).statusTexts = seen;
		new MutationObserver(() => {
			const text = document.querySelector('[aria-label="Transfer status"]')?.textContent?.trim();
			if (text && seen.at(-1) !== text) seen.push(text);
		}).observe(document.body, { subtree: true, childList: true, characterData: true });
	});
	return () => page.evaluate(() => (window as unknown as { statusTexts: string[] }).statusTexts);
}

test('a file larger than one slice imports whole, with progress after each slice; a broken row in its last slice refuses all of it', async ({ page }) => {
	test.setTimeout(180_000);
	await openApp(page);
	await sendMessage(page, 'echo: my own work');
	await waitForAnswer(page);
	await navigate(page, 'Settings');
	const before = { sessions: await readRows(page, 'palimpsest-default', 'sessions'), messages: await readRows(page, 'palimpsest-default', 'messages') };

	// 25,000 messages: a slice of 20,000 (20 sessions), then one of 5,000. The last message of the
	// last session has a role no app writes.
	const broken = largeFile(25, 1_000);
	broken.sessions[24].messages[999].role = 'wizard';
	await importFile(page, 'broken.json', JSON.stringify(broken));
	await expect(status(page)).toHaveText(/^Import refused: The file is malformed: message 1000 of session moved-24 has “role” = "wizard", expected .* Nothing was changed\.$/, { timeout: 60_000 });
	await expect.poll(() => readRows(page, 'palimpsest-default', 'sessions')).toEqual(before.sessions);
	await expect.poll(() => readRows(page, 'palimpsest-default', 'messages')).toEqual(before.messages);

	const shown = await recordStatus(page);
	await importFile(page, 'moved.json', JSON.stringify(largeFile(25, 1_000)));
	await expect(status(page)).toHaveText('Imported 25 sessions (25,000 messages).', { timeout: 120_000 });
	expect((await shown()).filter((text) => text.startsWith('Importing: writing messages'))).toEqual([
		'Importing: writing messages… 0 of 25,000',
		'Importing: writing messages… 20,000 of 25,000',
		'Importing: writing messages… 25,000 of 25,000'
	]);
	const sessions = await readRows(page, 'palimpsest-default', 'sessions');
	const imported = sessions.filter((row) => String(row.id).startsWith('moved-'));
	expect(imported).toHaveLength(25);
	// One file, one origin: every session of it, in either slice, carries the same import id.
	expect(new Set(imported.map((row) => row.import_id)).size).toBe(1);
	expect(imported.find((row) => row.id === 'moved-24')).toMatchObject({ parent_session_id: 'moved-23', parent_kind: 'branch', profile: 'default' });
	const messages = await readRows(page, 'palimpsest-default', 'messages');
	expect(messages).toHaveLength(before.messages.length + 25_000);
	expect(messages.filter((row) => row.session_id === 'moved-24').map((row) => row.content).at(-1)).toBe('Message 999 of session 24');
});
