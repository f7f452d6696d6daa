// Storage that fills up while the app works: the answer streaming at that moment keeps going in
// memory and on screen, is offered to copy and to retry, and is stored (marked failed, with the
// reason) once there is room again; nothing stored before is lost, and the app keeps working.
// Here writes fail through an init script (as QuotaExceededError, which is what Chromium gives);
// storage-full-disk.spec.ts fills a real disk where the machine allows mounting one.
import { expect, test } from './test-base';
import { LONG_PROMPT, assistantMessages, messageBody, messageText, newSession, openApp, sendAndWait, sendMessage, sessionIdFromUrl, sessionLinks, userMessages, waitForAnswer } from './helpers';
import { fillWhileStreaming, installFullDisk, setDiskFull, words } from './storage-helpers';

test('an answer streaming when storage fills up keeps going, can be copied and retried, and is stored once there is room', async ({
	page,
	context
}) => {
	await context.grantPermissions(['clipboard-read', 'clipboard-write']);
	await installFullDisk(page);
	await openApp(page);
	await sendAndWait(page, 'echo: saved before the disk filled up');
	await newSession(page);
	await sendMessage(page, LONG_PROMPT);
	const id = sessionIdFromUrl(page);
	const answer = assistantMessages(page).last();
	await expect.poll(async () => (await messageText(answer)).length).toBeGreaterThan(200);

	// The stream goes on in memory, then ends with nothing to store it: it stays here, failed, with Copy and Retry.
	const shown = await fillWhileStreaming(answer, () => setDiskFull(page, true));
	await expect(answer).toContainText('copy it to keep it');
	await expect(answer.getByRole('button', { name: 'Retry' })).toBeVisible();
	await expect(answer).not.toContainText('Answering in another tab');
	const alert = page.getByRole('alert');
	await expect(alert).toContainText('storage is full');
	await expect(alert.getByRole('button', { name: 'Export' })).toBeVisible();
	await answer.getByRole('button', { name: 'Copy' }).click();
	await expect(answer.getByRole('status')).toHaveText('Copied');
	const clipboard = () => page.evaluate(() => navigator.clipboard.readText());
	await expect.poll(async () => words(await clipboard())).toBeGreaterThan(2900);
	await expect.poll(clipboard).toContain('The river');

	// Room again: the answer is stored, whole, marked failed with the reason.
	await setDiskFull(page, false);
	await expect(answer).not.toContainText('This answer is not saved', { timeout: 10_000 });
	await expect(answer).toContainText('could not be stored while it was written: storage is full');
	await page.reload();
	const stored = assistantMessages(page).last();
	await expect(stored).toHaveAttribute('data-status', 'error');
	// Shown as plain text until the Markdown renderer has loaded, a moment after a reload.
	await expect.poll(() => messageText(stored)).toBe(shown);
	await expect(messageBody(userMessages(page))).toHaveText([LONG_PROMPT]);
	// Nothing stored before the disk filled is lost.
	await expect(sessionLinks(page)).toHaveCount(2);
	await sessionLinks(page).filter({ hasText: 'echo: saved before the disk filled up' }).click();
	await expect(messageBody(assistantMessages(page))).toHaveText(['saved before the disk filled up']);

	// And the app keeps working: Retry answers again, a new message is answered.
	await page.goto(`/s/${id}`);
	await assistantMessages(page).last().getByRole('button', { name: 'Retry' }).click();
	await waitForAnswer(page, 'complete', 30_000);
	await sendAndWait(page, 'echo: still here');
});

test('a start-up repair that storage refuses does not stop the app, and lands once there is room', async ({ page, context }) => {
	// A tab closes while it answers: its answer is left streaming.
	const first = await context.newPage();
	await openApp(first);
	await sendMessage(first, LONG_PROMPT);
	const id = sessionIdFromUrl(first);
	// Well past the first checkpoints (the text shown runs up to a quarter of a second ahead of them).
	await expect.poll(async () => (await messageText(assistantMessages(first).last())).length).toBeGreaterThan(1500);
	await first.close();

	// The next start meets a full disk: the repair fails, the app starts anyway.
	await installFullDisk(page, true);
	await openApp(page, `/s/${id}`);
	const answer = assistantMessages(page).last();
	await expect(answer).toHaveAttribute('data-status', 'streaming');
	await expect(page.getByRole('textbox', { name: 'Message' })).toBeEnabled();

	await setDiskFull(page, false);
	await expect(answer).toHaveAttribute('data-status', 'incomplete');
	await expect(answer).toContainText('Incomplete: the tab that was writing it closed before it finished.');
	await expect.poll(async () => (await messageText(answer)).length).toBeGreaterThan(200);
	await answer.getByRole('button', { name: 'Retry' }).click();
	await waitForAnswer(page, 'complete', 30_000);
});
