// The same as storage-full.spec.ts with a real full disk: Chromium's profile lives on a small
// tmpfs that a filler process fills to the last byte while an answer streams. Chromium then fails the
// write with an I/O error ("FILE_ERROR_NO_SPACE") and closes every connection to the database,
// which the app must survive: the answer goes on in memory, and once the disk has room again the
// connection is opened anew and the answer stored. Skipped where the machine does not allow
// mounting a disk in a private namespace.
// Service workers are blocked here: with one registered, this Chromium answers the full disk by
// deleting its service-worker storage and, with it, the origin's IndexedDB (persistent storage
// granted or not), which no page code can prevent; this test is about what the app does.
import { expect, test, TIMING } from './test-base';
import { LONG_PROMPT, assistantMessages, messageBody, messageText, newSession, sendAndWait, sendMessage, sessionLinks, waitForAnswer } from './helpers';
import { canMountSmallDisk, launchOnSmallDisk } from './small-disk';
import { fillWhileStreaming } from './storage-helpers';

// Run alone (TIMING): a filler process races the stream for the last bytes of the disk.
test('a disk that fills while an answer streams loses nothing stored, says so plainly, and the app works again once there is room', TIMING, async ({
	baseURL,
	pageErrors
}) => {
	test.skip(!canMountSmallDisk(), 'This machine does not allow mounting a small disk in a private namespace.');
	// A long answer streamed, a disk filled and freed, a reload and a retry: more than a minute on a busy machine.
	test.slow();
	const disk = await launchOnSmallDisk({ sizeMb: 64, baseURL: baseURL!, args: ['--no-sandbox', '--disable-gpu'], serviceWorkers: 'block' });
	pageErrors.watch(disk.context);
	try {
		const page = disk.context.pages()[0] ?? (await disk.context.newPage());
		await page.goto('/');
		await sendAndWait(page, 'echo: saved before the disk filled up');
		await newSession(page);
		await sendMessage(page, LONG_PROMPT);
		const answer = assistantMessages(page).last();
		await expect.poll(async () => (await messageText(answer)).length).toBeGreaterThan(200);

		const shown = await fillWhileStreaming(answer, () => disk.fill());
		await expect(answer.getByRole('button', { name: 'Copy' })).toBeVisible();
		await expect(answer.getByRole('button', { name: 'Retry' })).toBeVisible();
		await expect(page.getByRole('alert')).toContainText('storage is full');

		await disk.free();
		await expect(answer).not.toContainText('This answer is not saved', { timeout: 20_000 });
		await expect(answer).toContainText('could not be stored while it was written: storage is full');
		await page.reload();
		const stored = assistantMessages(page).last();
		await expect(stored).toHaveAttribute('data-status', 'error');
		await expect.poll(() => messageText(stored)).toBe(shown);
		await expect(sessionLinks(page)).toHaveCount(2);
		await sessionLinks(page).filter({ hasText: 'echo: saved before the disk filled up' }).click();
		await expect(messageBody(assistantMessages(page))).toHaveText(['saved before the disk filled up']);
		await sessionLinks(page).filter({ hasText: LONG_PROMPT }).click();
		await assistantMessages(page).last().getByRole('button', { name: 'Retry' }).click();
		await waitForAnswer(page, 'complete', 30_000);
	} finally {
		await disk.close();
	}
});
