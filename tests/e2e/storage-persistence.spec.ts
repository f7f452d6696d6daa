// Persistent storage is asked for on the user's first message (a gesture), never at start-up,
// and Settings shows the browser's answer.
import { expect, test, type Page } from './test-base';
import { openApp, sendMessage, waitForAnswer } from './helpers';
import { navigate } from './plugin-helpers';

/** Replaces the browser's answer with `answer`, counting the requests, before the app starts. */
async function stubPersist(page: Page, answer: boolean): Promise<() => Promise<number>> {
	await page.addInitScript((granted) => {
		const calls = { persist: 0, kept: false };
		(globalThis as unknown as { __persist: typeof calls }).__persist = calls;
		Object.defineProperty(navigator.storage, 'persist', {
			value: async () => {
				calls.persist++;
				calls.kept = granted;
				return granted;
			}
		});
		Object.defineProperty(navigator.storage, 'persisted', { value: async () => calls.kept });
	}, answer);
	return () => page.evaluate(() => (globalThis as unknown as { __persist: { persist: number } }).__persist.persist);
}

const status = (page: Page) => page.getByRole('status', { name: 'Storage persistence' });

test('asked on the first message, not at start-up; Settings shows that it was granted', async ({ page }) => {
	const asked = await stubPersist(page, true);
	await openApp(page);
	await navigate(page, 'Settings');
	await expect(status(page)).toHaveText('Not persistent yet: Palimpsest asks the browser when you send your first message.');
	await expect.poll(asked).toBe(0);

	await navigate(page, 'Chat');
	await sendMessage(page, 'First message');
	await waitForAnswer(page);
	await expect.poll(asked).toBe(1);
	await sendMessage(page, 'Second message');
	await waitForAnswer(page);
	await expect.poll(asked).toBe(1);
	await navigate(page, 'Settings');
	await expect(status(page)).toHaveText('Persistent: the browser keeps your sessions even when disk space runs low.');
	await expect(page.getByRole('button', { name: 'Ask the browser to keep data' })).toHaveCount(0);
});

test('a refusal is shown in Settings, where the user can ask again', async ({ page }) => {
	const asked = await stubPersist(page, false);
	await openApp(page);
	await sendMessage(page, 'Keep this please');
	await waitForAnswer(page);
	await navigate(page, 'Settings');
	await expect(status(page)).toContainText('Not persistent: the browser declined');
	await page.getByRole('button', { name: 'Ask the browser to keep data' }).click();
	await expect.poll(asked).toBe(2);
	await expect(status(page)).toContainText('Not persistent: the browser declined');
});

test("with the browser's own answer, Settings agrees with navigator.storage.persisted()", async ({ page }) => {
	await openApp(page);
	await sendMessage(page, 'Hello');
	await waitForAnswer(page);
	await navigate(page, 'Settings');
	await expect(status(page)).not.toHaveText(/Checking|Asking|Not persistent yet/);
	const persisted = await page.evaluate(() => navigator.storage.persisted());
	await expect(status(page)).toHaveText(persisted ? /^Persistent/ : /^Not persistent: the browser declined/);
});
