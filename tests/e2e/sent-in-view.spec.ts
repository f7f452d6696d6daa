// Whatever the reader sends, a slash command included, brings them to its result: reading far
// up a long transcript, they run /usage or /help and see the output, not an unchanged screen.
import type { Page } from '@playwright/test';
import { expect, test } from './test-base';
import { openApp, sendAndWait, transcript } from './helpers';
import { commandOutputs, runCommand } from './plugin-helpers';
import { writeRows, type SeedMessage } from './seed-rows';

test.use({ viewport: { width: 1366, height: 850 } });

const LENGTH = 40;
const LINE = 'The tide came in over the breakwater while the crew checked the moorings, counted the crates twice and wrote the figures into the ledger by the lamp.';

/** Scrolls the transcript to its top and waits until the first message is what the reader sees. */
async function scrollToTop(page: Page): Promise<void> {
	const log = transcript(page);
	// What this test checks is where a send brings the reader, so the scroll up is made again
	// should the end of a row still being drawn take the view along with it.
	await expect(async () => {
		await log.evaluate((node) => node.scrollTo({ top: 0 }));
		await expect(log.getByRole('article').first()).toBeInViewport({ timeout: 1_000 });
	}).toPass();
	await expect(commandOutputs(page).last()).not.toBeInViewport();
}

test('a command run while scrolled up brings the reader to its output, as a message brings them to its answer', async ({ page }) => {
	await openApp(page);
	const messages: SeedMessage[] = Array.from({ length: LENGTH }, (_, seq) => ({ session: 'long', seq, content: `Entry ${seq}. ${LINE} ${LINE} ${LINE}` }));
	await writeRows(page, [{ id: 'long', title: 'A long log', messages: LENGTH }], messages);
	await page.goto('/s/long');
	await expect(transcript(page).getByRole('article')).toHaveCount(LENGTH);
	await expect.poll(() => transcript(page).evaluate((node) => node.scrollHeight - node.clientHeight)).toBeGreaterThan(2000);

	await runCommand(page, '/help');
	await expect(commandOutputs(page).last()).toBeInViewport();

	for (const command of ['/usage', '/help']) {
		await scrollToTop(page);
		const output = await runCommand(page, command);
		await expect(output).toBeInViewport();
	}

	await scrollToTop(page);
	const answer = await sendAndWait(page, 'echo: and a message');
	await expect(answer).toBeInViewport();
});
