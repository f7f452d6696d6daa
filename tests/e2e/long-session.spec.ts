// A long session opens with its latest messages only (rendering hundreds of answers at once
// would hold the page for seconds); earlier ones come a page at a time, and none is lost.
import { expect, test, type Page } from './test-base';
import { openApp, transcript } from './helpers';

const PAIRS = 150;

/** One session of PAIRS question/answer pairs, written straight into IndexedDB. */
async function seedLongSession(page: Page): Promise<string> {
	return page.evaluate(async (pairs) => {
		const open = indexedDB.open('palimpsest-default');
		const db = await new Promise<IDBDatabase>((resolve, reject) => {
			open.onsuccess = () => resolve(open.result);
			open.onerror = () => reject(open.error);
		});
		const tx = db.transaction(['sessions', 'messages'], 'readwrite');
		const id = 'long-session';
		const now = Date.now();
		tx.objectStore('sessions').put({
			id, profile: 'default', title: 'A long session', title_source: 'user', session_key: `web:default:${id}`,
			created_at: now, last_activity_at: now, ended_at: null, end_reason: null, parent_session_id: null, parent_kind: null,
			archived: 0, pinned: 0, provider: 'offline', model: 'offline-mini', message_count: pairs * 2, token_estimate: 0,
			next_seq: pairs * 2, compaction: { failures: 0, cooldown_until: 0, turns_since_micro: 0 }
		});
		for (let i = 0; i < pairs * 2; i++) {
			tx.objectStore('messages').put({
				session_id: id, seq: i, id: `${id}-${i}`, role: i % 2 ? 'assistant' : 'user',
				content: i % 2 ? `Answer number ${(i - 1) / 2}, with **Markdown**.` : `Question number ${i / 2}`,
				status: 'complete', kind: 'message', active: 1, compacted_by: null, created_at: now
			});
		}
		await new Promise((resolve, reject) => {
			tx.oncomplete = resolve;
			tx.onerror = () => reject(tx.error);
		});
		db.close();
		return id;
	}, PAIRS);
}

test('a long session shows its latest messages first, and earlier ones on request or when scrolled to', async ({ page }) => {
	await openApp(page);
	const id = await seedLongSession(page);
	await page.goto(`/s/${id}`);
	const log = transcript(page);
	await expect(log.getByText('Question number 149', { exact: true })).toBeVisible();
	await expect(log.getByRole('article')).toHaveCount(40);
	const earlier = log.getByRole('button', { name: /^Show earlier messages/ });
	await expect(earlier).toHaveText('Show earlier messages (260)');
	await earlier.click();
	await expect(log.getByRole('article')).toHaveCount(80);
	// Scrolling to the top brings the next page on its own.
	await log.evaluate((node) => node.scrollTo({ top: 0 }));
	await expect(log.getByRole('article')).toHaveCount(120);
	while ((await earlier.count()) > 0) await earlier.click();
	await expect(log.getByRole('article')).toHaveCount(PAIRS * 2);
	await expect(log.getByText('Question number 0', { exact: true })).toBeAttached();
});
