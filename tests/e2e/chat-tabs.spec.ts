// The chat across tabs and page changes: a second tab cannot talk over an answer streaming in
// the first, the Message box keeps focus when a draft becomes a session, and every session
// opens at its latest messages.
import { expect, test, type Locator } from './test-base';
import { navigate } from './plugin-helpers';
import { LONG_PROMPT, assistantMessages, messageBody, messageText, newSession, openApp, sendMessage, sessionIdFromUrl, sidebar, transcript, userMessages, waitForAnswer } from './helpers';


/** How far the transcript is scrolled up from its bottom, in pixels. */
function distanceFromBottom(log: Locator): Promise<number> {
	return log.evaluate((el) => el.scrollHeight - el.scrollTop - el.clientHeight);
}

test('a second tab cannot send while the first is answering; its text stays and the answer keeps showing', async ({
	context,
	page
}) => {
	await openApp(page);
	await sendMessage(page, LONG_PROMPT);
	const id = sessionIdFromUrl(page);
	await expect(assistantMessages(page).last()).toHaveAttribute('data-status', 'streaming');

	const second = await context.newPage();
	await openApp(second, `/s/${id}`);
	const answer = assistantMessages(second).last();
	await expect(answer).toHaveAttribute('data-status', 'streaming');
	await expect(answer).toContainText('Answering in another tab');

	const box = second.getByRole('textbox', { name: 'Message' });
	const question = 'And what about lakes?';
	await box.fill(question);
	await box.press('Enter');
	await expect(second.getByRole('alert')).toContainText('This session is answering in another tab');
	await expect(box).toHaveValue(question);
	await expect(userMessages(second)).toHaveCount(1);
	await expect(second.getByRole('button', { name: 'Stop' })).toHaveCount(0);

	// The first tab's answer still grows in the second tab's view, not a bare "…".
	await expect(answer).toHaveAttribute('data-status', 'streaming');
	const seen = (await messageText(answer)).length;
	await expect.poll(async () => (await messageText(answer)).length).toBeGreaterThan(seen + 200);

	// Once the first tab is done, the kept text goes out from the second tab.
	await waitForAnswer(second, 'complete', 30_000);
	// The first tab lets go of the session a moment after its answer shows as complete; a
	// press before that is refused as above and keeps the text, so press until it goes out
	// (once sent, the box is empty and a further press sends nothing).
	await expect(async () => {
		await box.press('Enter');
		await expect(userMessages(second)).toHaveCount(2, { timeout: 1_000 });
	}).toPass();
	await expect(messageBody(userMessages(second))).toHaveText([LONG_PROMPT, question]);
	await expect(box).toHaveValue('');
	await waitForAnswer(second);
	await expect(messageBody(userMessages(page))).toHaveText([LONG_PROMPT, question]);
});

test('typing goes on in the Message box after the first message creates the session', async ({ page }) => {
	await openApp(page);
	await sendMessage(page, 'Hello there');
	const box = page.getByRole('textbox', { name: 'Message' });
	await expect(box).toBeFocused();
	await page.keyboard.type('next');
	await expect(box).toHaveValue('next');
});

test('a session opened from the sidebar shows its latest messages, wherever the last one was scrolled', async ({
	page
}) => {
	await openApp(page);
	const first = 'Tell me 800 words about tides';
	await sendMessage(page, first);
	await waitForAnswer(page);
	await newSession(page);
	await sendMessage(page, 'Tell me 800 words about glaciers');
	await waitForAnswer(page);

	const log = transcript(page);
	await expect.poll(() => distanceFromBottom(log)).toBeLessThan(48);
	await log.evaluate((el) => el.scrollTo({ top: 0 }));
	await expect.poll(() => log.evaluate((el) => el.scrollTop)).toBe(0);
	await expect.poll(() => distanceFromBottom(log)).toBeGreaterThan(500);

	await sidebar(page).getByRole('link', { name: first }).click();
	await expect(messageBody(userMessages(page))).toHaveText([first]);
	await expect(assistantMessages(page).last()).toHaveAttribute('data-status', 'complete');
	await expect.poll(() => distanceFromBottom(log)).toBeLessThan(48);
	await expect(assistantMessages(page).last().getByRole('paragraph').last()).toBeInViewport();
});

test('a scroll the transcript reports after it left the page (a session deleted or closed mid-scroll) is no error', async ({ page }) => {
	await openApp(page);
	await sendMessage(page, 'hello');
	await waitForAnswer(page);
	// Keep the transcript's element, leave it, then let it report the scroll it had pending.
	await transcript(page).evaluate((el) => ((window as unknown as { leftLog: Element }).leftLog = el));
	await navigate(page, 'Settings');
	await expect(transcript(page)).toHaveCount(0);
	await page.evaluate(() => (window as unknown as { leftLog: Element }).leftLog.dispatchEvent(new Event('scroll')));
	// test-base fails the test on any uncaught error the page reports.
	await navigate(page, 'Chat');
	await expect(transcript(page)).toBeVisible();
});
