// Search over thousands of sessions answers from the full-text index: a word said once, deep
// inside one long session, is found as the user types it, shown with its snippet, and opens
// the session scrolled to that message with the word highlighted. Archived sessions are found
// and marked; CJK text is found by two characters; a new answer is found as soon as it is stored.
import type { Page } from '@playwright/test';
import { expect, test } from './test-base';
import { openApp, sendAndWait, sessionLinks, sidebar, transcript } from './helpers';

const COUNT = 3000;
const PER_SESSION = 8;
/** The session holding the rare word, its length, and where the word is. */
const TARGET = 1234;
const TARGET_MESSAGES = 200;
const TARGET_SEQ = 20;
const ARCHIVED = 2500;

async function seed(page: Page): Promise<void> {
	await page.evaluate(
		async ({ count, perSession, target, targetMessages, targetSeq, archived }) => {
			const open = indexedDB.open('palimpsest-default');
			const db = await new Promise<IDBDatabase>((resolve, reject) => {
				open.onsuccess = () => resolve(open.result);
				open.onerror = () => reject(open.error);
			});
			const tx = db.transaction(['sessions', 'messages'], 'readwrite');
			const now = Date.now();
			const words = ['river', 'harbour', 'compile', 'function', 'budget', 'garden', 'letter', 'engine'];
			for (let i = 0; i < count; i++) {
				const id = `s-${String(i).padStart(5, '0')}`;
				const length = i === target ? targetMessages : perSession;
				tx.objectStore('sessions').put({
					id, profile: 'default', title: `Session ${i}`, title_source: 'user', session_key: `web:default:${id}`,
					created_at: now - i * 60_000, last_activity_at: now - i * 60_000, ended_at: null, end_reason: null,
					parent_session_id: null, parent_kind: null, archived: i === archived ? 1 : 0, pinned: 0, provider: 'offline', model: 'offline-mini',
					message_count: length, token_estimate: 0, next_seq: length, compaction: { failures: 0, cooldown_until: 0, turns_since_micro: 0 }
				});
				for (let seq = 0; seq < length; seq++) {
					let content = `Message ${seq} about the ${words[(i + seq) % words.length]} and the ${words[(i * 3 + seq) % words.length]}.`;
					if (i === target && seq === targetSeq) content = 'We tuned the Xylophonic resonator until it rang true.';
					if (i === archived && seq === 0) content = 'An archived note about the marzipan ledger.';
					if (i === 77 && seq === 1) content = '我们讨论了全文搜索引擎的设计';
					tx.objectStore('messages').put({
						session_id: id, seq, id: `${id}-${seq}`, role: seq % 2 ? 'assistant' : 'user', content,
						status: 'complete', kind: 'message', active: 1, compacted_by: null, created_at: now
					});
				}
			}
			await new Promise((resolve, reject) => {
				tx.oncomplete = resolve;
				tx.onerror = () => reject(tx.error);
			});
			db.close();
		},
		{ count: COUNT, perSession: PER_SESSION, target: TARGET, targetMessages: TARGET_MESSAGES, targetSeq: TARGET_SEQ, archived: ARCHIVED }
	);
}

const searchBox = (page: Page) => sidebar(page).getByRole('searchbox', { name: 'Search sessions' });

test('a word said once deep inside one of thousands of sessions is found as it is typed and opens the session at that message', async ({ page }) => {
	test.setTimeout(120_000);
	await openApp(page);
	await seed(page);
	await page.reload();
	await expect(sessionLinks(page).first()).toHaveText('Session 0');

	// The index builds in the background; typing finds the word once its session is indexed.
	await searchBox(page).pressSequentially('xyloph');
	await expect(sessionLinks(page)).toHaveText([`Session ${TARGET}`], { timeout: 60_000 });
	const snippet = sidebar(page).getByLabel('Matching message');
	await expect(snippet).toContainText('We tuned the Xylophonic resonator');
	await expect(snippet.locator('mark')).toHaveText(['Xylophonic']);
	await expect(sidebar(page).getByRole('status', { name: 'Search index' })).toHaveCount(0, { timeout: 60_000 });

	// Enter on the result opens the session at that message, far above its latest ones.
	await sessionLinks(page).first().focus();
	await page.keyboard.press('Enter');
	await expect(page).toHaveURL(new RegExp(`/s/s-0${TARGET}$`));
	const found = transcript(page).locator('article[data-search-match]');
	await expect(found).toContainText('Xylophonic resonator');
	await expect(found).toBeInViewport();
	expect(await page.evaluate(() => CSS.highlights.get('search-match')?.size)).toBe(1);

	// Archived sessions are searched and marked; CJK text is found by two characters; accents fold.
	await searchBox(page).fill('marzipan');
	await expect(sessionLinks(page)).toHaveText([`Session ${ARCHIVED}`]);
	await expect(sidebar(page).getByRole('listitem').getByText('Archived', { exact: true })).toBeVisible();
	await searchBox(page).fill('搜索');
	await expect(sessionLinks(page)).toHaveText(['Session 77']);
	await searchBox(page).fill('XYLÔPHONIC');
	await expect(sessionLinks(page)).toHaveText([`Session ${TARGET}`]);

	// A new answer is found as soon as it is stored.
	await searchBox(page).fill('');
	await sidebar(page).getByRole('button', { name: 'New session' }).click();
	await sendAndWait(page, 'echo: hello there');
	await sendAndWait(page, 'echo: a quixotically novel phrase');
	await searchBox(page).fill('quixotic');
	await expect(sessionLinks(page)).toHaveText(['echo: hello there']);
	await expect(sidebar(page).getByLabel('Matching message').locator('mark').first()).toHaveText('quixotically');
});
