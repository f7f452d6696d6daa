// The context meter of a session open in two tabs: each tab keeps the session's token counts in
// memory and follows what the other tab writes, so an estimate made in one tab after the other
// answered still counts that answer.
import { expect, test, type Page } from './test-base';
import { numberIn, openApp, sendAndWait, sessionIdFromUrl, userMessages } from './helpers';

/** The estimated tokens the meter shows ("1,234 / 32,000 tokens (…)"), once it shows a count. */
function meterTokens(page: Page): Promise<number> {
	return numberIn(page.getByRole('status', { name: 'Context usage' }), /([\d,]+) \/ [\d,]+ tokens/);
}

/** Waits until no tab works on a session (the idle pass after an answer holds the session's lock). */
async function waitForIdle(page: Page): Promise<void> {
	await expect
		.poll(() => page.evaluate(async () => (await navigator.locks.query()).held?.filter((lock) => lock.name?.startsWith('palimpsest-work:')).length))
		.toBe(0);
}

test("an estimate in one tab counts what another tab wrote into the same session meanwhile", async ({ context, page }) => {
	await openApp(page);
	await sendAndWait(page, 'Hello there');
	const id = sessionIdFromUrl(page);
	// This tab has counted the session once: from here on it follows changes, it does not re-read.
	await expect.poll(() => meterTokens(page)).toBeGreaterThan(0);
	await waitForIdle(page);

	const other = await context.newPage();
	await openApp(other, `/s/${id}`);
	await expect(userMessages(other)).toHaveCount(1);
	await sendAndWait(other, 'Tell me 800 words about tides');
	// The other tab stored its estimate, which this tab's meter shows too.
	await expect.poll(() => meterTokens(other)).toBeGreaterThan(1000);
	const afterOther = await meterTokens(other);
	await expect.poll(() => meterTokens(page)).toBe(afterOther);
	await waitForIdle(other);

	// Now this tab estimates again, after a message of its own: the other tab's answer is still counted.
	await sendAndWait(page, 'Thanks');
	await expect.poll(() => meterTokens(page)).toBeGreaterThan(afterOther);
});
