// Each message's actions: Copy; Edit on your own messages, which keeps what it replaces as an
// earlier version behind a "1/2" switcher; Regenerate on answers, with the same or another
// model; Retry for a stopped answer; and Jump to latest while an answer streams, without the
// transcript pulling a reader down.
import { expect, test, type Page } from './test-base';
import { LONG_PROMPT, assistantMessages, messageBody, messageText, openApp, sendAndWait, sendMessage, transcript, userMessages, waitForAnswer } from './helpers';
import { addCustomProvider, readRows } from './plugin-helpers';
import { chooseModel, OFFLINE_LABEL } from './provider-helpers';
import { useMockProvider } from './test-servers';

const mock = useMockProvider({ reset: false });

const versionLabel = (page: Page, shown: number, count: number) => transcript(page).getByLabel(`Version ${shown} of ${count}`, { exact: true });

test('Copy puts a message, or an answer as written, on the clipboard', async ({ page, context }) => {
	await context.grantPermissions(['clipboard-read', 'clipboard-write']);
	await openApp(page);
	await sendAndWait(page, 'echo: **bold** words');
	await userMessages(page).getByRole('button', { name: 'Copy' }).click();
	await expect(userMessages(page).getByRole('status')).toHaveText('Copied');
	await expect.poll(() => page.evaluate(() => navigator.clipboard.readText())).toBe('echo: **bold** words');
	await assistantMessages(page).getByRole('button', { name: 'Copy' }).click();
	// The answer's Markdown, not its rendered text.
	await expect.poll(() => page.evaluate(() => navigator.clipboard.readText())).toBe('**bold** words');
});

test('Edit resends a message; what it replaced is an earlier version, shown again with the switcher, across a reload', async ({ page }) => {
	await openApp(page);
	await sendAndWait(page, 'echo: first question');
	await sendAndWait(page, 'echo: second question');
	const second = userMessages(page).last();

	// Escape leaves the message as it was, with focus back on its actions.
	await second.getByRole('button', { name: 'Edit' }).click();
	const editor = second.getByRole('textbox', { name: 'Edited message' });
	await expect(editor).toBeFocused();
	await expect(editor).toHaveValue('echo: second question');
	await page.keyboard.press('Escape');
	await expect(editor).toHaveCount(0);
	await expect(second.getByRole('button', { name: 'Copy' })).toBeFocused();

	await second.getByRole('button', { name: 'Edit' }).click();
	await editor.fill('echo: second question, put better');
	await editor.press('Enter');
	await waitForAnswer(page);
	await expect(messageBody(userMessages(page))).toHaveText(['echo: first question', 'echo: second question, put better']);
	await expect(messageBody(assistantMessages(page))).toHaveText(['first question', 'second question, put better']);
	await expect(page.getByRole('textbox', { name: 'Message' })).toBeFocused();
	// The switcher sits on the edited message: this is version 2 of 2.
	const edited = userMessages(page).last();
	await expect(edited.getByLabel('Version 2 of 2', { exact: true })).toBeVisible();
	await expect(edited.getByRole('button', { name: 'Next version' })).toBeDisabled();

	await edited.getByRole('button', { name: 'Previous version' }).click();
	await expect(messageBody(userMessages(page))).toHaveText(['echo: first question', 'echo: second question']);
	await expect(messageBody(assistantMessages(page))).toHaveText(['first question', 'second question']);
	await expect(versionLabel(page, 1, 2)).toBeVisible();

	// Nothing was deleted, and the version on show is kept.
	await page.reload();
	await expect(messageBody(userMessages(page))).toHaveText(['echo: first question', 'echo: second question']);
	await userMessages(page).last().getByRole('button', { name: 'Next version' }).click();
	await expect(messageBody(userMessages(page))).toHaveText(['echo: first question', 'echo: second question, put better']);
	const rows = await readRows(page, 'palimpsest-default', 'messages');
	expect(rows).toHaveLength(6);
	expect(rows.filter((row) => row.shelved).map((row) => row.content)).toEqual(['echo: second question', 'second question']);
});

test('Regenerate answers again, with the same model or another; the earlier answers stay one click away', async ({ page }) => {
	await openApp(page);
	const label = await addCustomProvider(page, `${mock.url}/v1`, 'mock-model');
	// The first provider saved is the default: the first answers come from the offline model by choice.
	await chooseModel(page, OFFLINE_LABEL);
	await sendAndWait(page, 'What is a tide?');
	const first = await messageText(assistantMessages(page).last());

	await assistantMessages(page).last().getByRole('button', { name: 'Regenerate' }).click();
	await waitForAnswer(page);
	await expect(assistantMessages(page)).toHaveCount(1);
	await expect(versionLabel(page, 2, 2)).toBeVisible();

	await assistantMessages(page).last().getByRole('combobox', { name: 'Regenerate with another model' }).selectOption({ label });
	await waitForAnswer(page);
	await expect(messageBody(assistantMessages(page))).toHaveText(['Mock answer to: What is a tide?']);
	await expect(versionLabel(page, 3, 3)).toBeVisible();
	// The session goes on with the model chosen.
	await expect(page.getByRole('combobox', { name: 'Model', exact: true })).toHaveValue(/mock-model$/);

	await assistantMessages(page).last().getByRole('button', { name: 'Previous version' }).click();
	await expect(versionLabel(page, 2, 3)).toBeVisible();
	await assistantMessages(page).last().getByRole('button', { name: 'Previous version' }).click();
	await expect(versionLabel(page, 1, 3)).toBeVisible();
	await expect.poll(() => messageText(assistantMessages(page).last())).toBe(first);
	await expect(messageBody(userMessages(page))).toHaveText(['What is a tide?']);
});

test('a stopped answer offers Retry, not Regenerate; Jump to latest appears while the reader scrolled up, and nothing pulls them down', async ({ page }) => {
	await openApp(page);
	await sendAndWait(page, 'echo: a short first exchange');
	await sendMessage(page, LONG_PROMPT);
	const answer = assistantMessages(page).last();
	await expect(answer).toHaveAttribute('data-status', 'streaming');
	const log = transcript(page);
	await expect.poll(() => log.evaluate((node) => node.scrollHeight - node.clientHeight)).toBeGreaterThan(400);

	// The reader scrolls up to read: more text comes in, and they stay where they are, even when
	// the text comes before the browser tells the page of the scroll (held back here until the
	// answer has grown and been followed, so that the order is sure).
	await log.evaluate(async (node) => {
		const hold = (event: Event) => event.target === node && event.stopImmediatePropagation();
		window.addEventListener('scroll', hold, true);
		const answer = node.querySelector('article:last-of-type')!;
		const length = answer.textContent!.length;
		node.scrollTo({ top: 0 });
		await new Promise<void>((resolve) => {
			const watch = new MutationObserver(() => {
				if (answer.textContent!.length < length + 200) return;
				watch.disconnect();
				resolve();
			});
			watch.observe(answer, { subtree: true, childList: true, characterData: true });
		});
		// What follows the new text runs once Svelte has drawn it.
		await new Promise((resolve) => requestAnimationFrame(() => setTimeout(resolve)));
		window.removeEventListener('scroll', hold, true);
	});
	await expect(log).toHaveJSProperty('scrollTop', 0);
	const jump = page.getByRole('button', { name: 'Jump to latest' });
	await expect(jump).toBeVisible();
	const height = await log.evaluate((node) => node.scrollHeight);
	await expect.poll(() => log.evaluate((node) => node.scrollHeight)).toBeGreaterThan(height + 200);
	await expect(log).toHaveJSProperty('scrollTop', 0);

	await jump.click();
	await expect(jump).toBeHidden();
	await expect.poll(() => log.evaluate((node) => node.scrollHeight - node.scrollTop - node.clientHeight)).toBeLessThan(60);
	await expect(page.getByRole('textbox', { name: 'Message' })).toBeFocused();

	await page.getByRole('button', { name: 'Stop' }).click();
	await waitForAnswer(page, 'aborted');
	await expect(answer.getByRole('button', { name: 'Retry' })).toBeVisible();
	await expect(answer.getByRole('button', { name: 'Regenerate' })).toHaveCount(0);
	await expect(answer.getByRole('button', { name: 'Copy' })).toBeVisible();
	// A finished answer has Regenerate and Branch from here, not Retry.
	const earlier = assistantMessages(page).first();
	await expect(earlier.getByRole('button', { name: 'Regenerate' })).toHaveCount(1);
	await expect(earlier.getByRole('button', { name: 'Branch from here' })).toHaveCount(1);
	await expect(earlier.getByRole('button', { name: 'Retry' })).toHaveCount(0);
});

test('on a phone, the answer to a message of many lines is followed as it streams, though the Message box shrank on sending', async ({ page }) => {
	// A phone's Message box grows with its lines (on a wider screen it has a fixed height).
	await page.setViewportSize({ width: 390, height: 844 });
	await openApp(page);
	await sendAndWait(page, 'echo: a short first exchange');
	const box = page.getByRole('textbox', { name: 'Message' });
	const log = transcript(page);
	const viewBefore = await log.evaluate((node) => node.clientHeight);
	await box.fill(`${LONG_PROMPT}\n${'with one more line\n'.repeat(6)}`);
	// The box grew with its lines, and the transcript gave it the room.
	await expect.poll(() => log.evaluate((node) => node.clientHeight)).toBeLessThan(viewBefore - 50);
	await box.press('Enter');
	const answer = assistantMessages(page).last();
	await expect(answer).toHaveAttribute('data-status', 'streaming');
	await expect.poll(() => log.evaluate((node) => node.scrollHeight - node.clientHeight)).toBeGreaterThan(1500);
	// Still at the end as the answer grows: nothing took the view off it.
	await expect(page.getByRole('button', { name: 'Jump to latest' })).toHaveCount(0);
	await expect.poll(() => log.evaluate((node) => node.scrollHeight - node.scrollTop - node.clientHeight)).toBeLessThan(200);
	await page.getByRole('button', { name: 'Stop' }).click();
	await waitForAnswer(page, 'aborted');
});

test('on a phone, a message’s actions sit behind one Message actions button: a sheet that an action, Escape or a tap outside closes', async ({ page, context }) => {
	await context.grantPermissions(['clipboard-read', 'clipboard-write']);
	await page.setViewportSize({ width: 390, height: 844 });
	await openApp(page);
	await sendAndWait(page, 'echo: tell me about tides');
	const answer = assistantMessages(page).last();
	// Closed: one button, none of the actions.
	await expect(answer.getByRole('button', { name: 'Copy' })).toBeHidden();
	await expect(answer.getByRole('button', { name: 'Regenerate' })).toBeHidden();
	const more = answer.getByRole('button', { name: 'Message actions' });
	await more.click();
	const sheet = answer.getByRole('group', { name: 'Message actions' });
	await expect(sheet.getByRole('button', { name: 'Regenerate' })).toBeVisible();
	await expect(sheet.getByRole('button', { name: 'Branch from here' })).toBeVisible();
	// A sheet at the foot of the screen, each action large enough to tap.
	await expect.poll(() => sheet.evaluate((node) => Math.round(node.getBoundingClientRect().bottom))).toBe(844);
	await expect.poll(() => sheet.getByRole('button', { name: 'Copy' }).evaluate((node) => node.getBoundingClientRect().height)).toBeGreaterThanOrEqual(44);
	await expect.poll(() => more.evaluate((node) => Math.min(node.getBoundingClientRect().width, node.getBoundingClientRect().height))).toBeGreaterThanOrEqual(44);

	await page.keyboard.press('Escape');
	await expect(sheet).toBeHidden();
	await expect(more).toBeFocused();

	// An action closes the sheet and runs.
	await more.click();
	await sheet.getByRole('button', { name: 'Copy' }).click();
	await expect(sheet).toBeHidden();
	await expect(answer.getByRole('status')).toHaveText('Copied');
	await expect.poll(() => page.evaluate(() => navigator.clipboard.readText())).toContain('tides');

	// A tap outside (on the transcript above it) closes it too.
	await more.click();
	await expect(sheet).toBeVisible();
	await page.mouse.click(195, 200);
	await expect(sheet).toBeHidden();
});
