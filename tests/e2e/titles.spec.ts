// Session titles in a real browser: a command alone begins no session.
import { expect, test } from './test-base';
import { messageBody, openApp, sendAndWait, sessionLinks, transcript } from './helpers';
import { commandOutputs, navigate, readRows, runCommand } from './plugin-helpers';

test('/help and other commands typed in a new chat answer there and begin no session; the first message does', async ({ page }) => {
	await openApp(page);
	await expect(await runCommand(page, '/help')).toContainText('/title <text> — Rename this session');
	await expect(messageBody(await runCommand(page, '/title Plans'))).toHaveText('There is no session here yet: /title works once your first message has begun one.');
	await expect(await runCommand(page, '/usage')).toContainText('Messages: 0 stored, 0 in context');
	await expect(commandOutputs(page)).toHaveCount(3);
	await expect(page).toHaveURL(/\/$/);
	await expect(sessionLinks(page)).toHaveCount(0);
	await expect.poll(() => readRows(page, 'palimpsest-default', 'sessions')).toEqual([]);
	// Nothing of them was kept: a new chat opened again starts empty.
	await navigate(page, 'Settings');
	await navigate(page, 'Chat');
	await expect(commandOutputs(page)).toHaveCount(0);

	await sendAndWait(page, 'echo: the first message');
	await expect(sessionLinks(page)).toHaveText(['echo: the first message']);
	await expect(transcript(page).getByRole('article')).toHaveCount(2);
});
