// The core chat loop in a real browser: answers stream in, are stored as they arrive, can be
// stopped and retried, and everything is still there after a reload.
import { expect, test } from './test-base';
import { LONG_PROMPT, assistantMessages, messageBody, messageText, openApp, sendMessage, sessionIdFromUrl, sessionLinks, sidebar, textChangesWithin, transcript, userMessages, waitForAnswer } from './helpers';


test('an answer streams in, completes, and survives a reload', async ({ page }) => {
	await openApp(page);
	const prompt = 'Tell me 150 words about tides';
	await sendMessage(page, prompt);
	const id = sessionIdFromUrl(page);

	const answer = assistantMessages(page).last();
	await expect(answer).toHaveAttribute('data-status', 'streaming');
	await expect.poll(async () => (await messageText(answer)).length).toBeGreaterThan(40);
	const early = await messageText(answer);
	await expect(answer).toHaveAttribute('data-status', 'streaming');
	// The text keeps growing while the answer is still streaming.
	await expect.poll(async () => (await messageText(answer)).length).toBeGreaterThan(early.length + 40);

	await waitForAnswer(page);
	const final = await messageText(answer);
	expect(final.slice(0, 40)).toBe(early.slice(0, 40));
	expect(final.length).toBeGreaterThan(early.length);
	expect(final).toContain('Part 1');
	await expect(messageBody(userMessages(page))).toHaveText([prompt]);
	await expect(sessionLinks(page)).toHaveText([prompt]);

	await page.reload();
	await expect(page).toHaveURL(new RegExp(`/s/${id}$`));
	await expect(messageBody(userMessages(page))).toHaveText([prompt]);
	await expect(assistantMessages(page)).toHaveCount(1);
	await expect(assistantMessages(page).first()).toHaveAttribute('data-status', 'complete');
	await expect(messageBody(assistantMessages(page).first())).toHaveText(final);
	await expect(sidebar(page).getByRole('link', { name: prompt })).toBeVisible();
	await expect(sessionLinks(page)).toHaveCount(1);
});

test('Stop keeps the partial answer, marked Stopped, across a reload; Retry completes it', async ({ page }) => {
	await openApp(page);
	await sendMessage(page, LONG_PROMPT);
	const answer = assistantMessages(page).last();
	await expect(answer).toHaveAttribute('data-status', 'streaming');
	await expect.poll(async () => (await messageText(answer)).length).toBeGreaterThan(200);

	await page.getByRole('button', { name: 'Stop' }).click();
	await expect(answer).toHaveAttribute('data-status', 'aborted');
	await expect(answer).toContainText('Stopped');
	await expect(page.getByRole('button', { name: 'Send' })).toBeVisible();
	await expect(page.getByRole('button', { name: 'Stop' })).toHaveCount(0);
	const partial = await messageText(answer);
	expect(partial.length).toBeGreaterThan(200);

	// Nothing more arrives once stopped (a live stream would add ~25 words in this time).
	expect(await textChangesWithin(messageBody(answer), 600)).toEqual([]);

	await page.reload();
	const reloaded = assistantMessages(page).last();
	await expect(reloaded).toHaveAttribute('data-status', 'aborted');
	await expect(reloaded).toContainText('Stopped');
	await expect(messageBody(reloaded)).toHaveText(partial);
	await expect(assistantMessages(page)).toHaveCount(1);

	await reloaded.getByRole('button', { name: 'Retry' }).click();
	await expect(page.getByRole('button', { name: 'Stop' })).toBeVisible();
	// A 3000-word answer streams for about 8 s.
	const retried = await waitForAnswer(page, 'complete', 30_000);
	await expect(assistantMessages(page)).toHaveCount(1);
	await expect(messageBody(userMessages(page))).toHaveText([LONG_PROMPT]);
	await expect(retried).not.toContainText('Stopped');
	await expect(transcript(page).getByRole('button', { name: 'Retry' })).toHaveCount(0);
	const full = await messageText(retried);
	expect(full.length).toBeGreaterThan(partial.length + 1000);
	// The offline essay is deterministic, so the full answer begins like the stopped one.
	expect(full.slice(0, 150)).toBe(partial.slice(0, 150));
});

test('Shift+Enter inserts a newline; Enter sends', async ({ page }) => {
	await openApp(page);
	const box = page.getByRole('textbox', { name: 'Message' });
	await box.click();
	await box.pressSequentially('first line');
	await box.press('Shift+Enter');
	await box.pressSequentially('second line');

	await expect(box).toHaveValue('first line\nsecond line');
	await expect(userMessages(page)).toHaveCount(0);
	await expect(page).toHaveURL(/\/$/);

	await box.press('Enter');
	await expect(userMessages(page)).toHaveCount(1);
	await expect.poll(() => messageText(userMessages(page).first())).toBe('first line\nsecond line');
	await expect(box).toHaveValue('');
	await expect(assistantMessages(page)).toHaveCount(1);
});

test('a reload mid-stream keeps the checkpointed partial answer, marked incomplete', async ({ page }) => {
	await openApp(page);
	await sendMessage(page, LONG_PROMPT);
	const answer = assistantMessages(page).last();
	await expect(answer).toHaveAttribute('data-status', 'streaming');
	// Past a few checkpoints (written at the first text, then every 250 ms; ~2,000 characters
	// take the offline model about a second).
	await expect.poll(async () => (await messageText(answer)).length).toBeGreaterThan(2000);
	const seen = await messageText(answer);

	await page.reload();
	const reloaded = assistantMessages(page).last();
	await expect(reloaded).toHaveAttribute('data-status', 'incomplete');
	await expect(reloaded).toContainText('Incomplete');
	const kept = await messageText(reloaded);
	// At most one checkpoint interval of text can be lost; what was kept is a prefix of the stream.
	expect(kept.length).toBeGreaterThan(seen.length / 2);
	expect(seen.startsWith(kept.slice(0, 200))).toBe(true);
	await expect(reloaded.getByRole('button', { name: 'Retry' })).toBeVisible();
	// Nothing is still streaming into it after the reload: its text stays as it was.
	expect(await textChangesWithin(messageBody(reloaded), 600)).toEqual([]);
	await expect(reloaded).toHaveAttribute('data-status', 'incomplete');
});
