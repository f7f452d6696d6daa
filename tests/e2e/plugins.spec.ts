// Plugins by URL in a real browser: adding one from another origin after confirming, its slash
// command in the chat, offline start-up from the cached copy, safe mode, failures shown in the
// plugin's row, and enable/disable/remove.
import { expect, test } from './test-base';
import { assistantMessages, expectNetworkOff, messageBody, openApp, sendMessage, sessionIdFromUrl, transcript, waitForAnswer, waitForServiceWorkerControl } from './helpers';
import { addPlugin, commandOutputs, navigate, pluginRow, readRows, readUserId, requestAdd, rowStatus, runCommand } from './plugin-helpers';
import { usePluginOrigins } from './test-servers';

const origins = usePluginOrigins();

const whoamiUrl = () => `${origins.cors}/whoami.js`;

test('a plugin from another origin is added after confirming, and /whoami knows the user and session', async ({ page }) => {
	await openApp(page);
	const row = await addPlugin(page, whoamiUrl(), 'whoami');
	await expect(rowStatus(row, 'Loaded')).toBeVisible();
	await expect(row).toContainText('/whoami');
	await expect(row).toContainText(whoamiUrl());
	await expect(row.getByRole('switch', { name: 'Enabled' })).toBeChecked();

	await navigate(page, 'Chat');
	const box = page.getByRole('textbox', { name: 'Message' });
	await box.pressSequentially('/who');
	const menu = page.getByRole('listbox', { name: 'Commands' });
	await expect(menu).toBeVisible();
	const option = menu.getByRole('option', { name: /\/whoami/ });
	await expect(option).toBeVisible();
	await expect(option).toContainText('Show who is calling, from which session');
	await box.press('Tab');
	await expect(box).toHaveValue('/whoami');
	await box.press('Enter');

	// In a new chat the command runs without a session, and begins none.
	const userId = await readUserId(page);
	const draftOutput = commandOutputs(page).last();
	await expect(messageBody(draftOutput)).toContainText('Session: none yet (a new chat)');
	await expect(messageBody(draftOutput)).toContainText(`User: You (${userId})`);
	await expect(page).toHaveURL(/\/$/);
	// A command is not a turn: the model was not asked anything.
	await expect(assistantMessages(page)).toHaveCount(0);

	await sendMessage(page, 'echo: hello');
	await waitForAnswer(page);
	const sessionId = sessionIdFromUrl(page);
	const output = await runCommand(page, '/whoami');
	await expect(messageBody(output)).toContainText(`Session: ${sessionId}`);
	await expect(messageBody(output)).toContainText(`User: You (${userId})`);
	await expect(messageBody(output)).toContainText('Platform: web');
	await expect(messageBody(output)).toContainText('Profile: default');
});

test('Escape or Cancel in the confirmation adds nothing', async ({ page }) => {
	await openApp(page);
	await navigate(page, 'Plugins');
	const dialog = await requestAdd(page, whoamiUrl());
	// It says what the plugin can and cannot reach before anything runs.
	await expect(dialog).toContainText('cannot read your API keys');
	await expect(dialog).toContainText('It will see what its hooks are given');
	await page.keyboard.press('Escape');
	await expect(dialog).toBeHidden();

	const again = await requestAdd(page, whoamiUrl());
	await again.getByRole('button', { name: 'Cancel' }).click();
	await expect(again).toBeHidden();

	await expect(pluginRow(page, 'whoami')).toHaveCount(0);
	await expect.poll(() => readRows(page, 'palimpsest-default', 'plugins')).toEqual([]);
	await page.reload();
	await expect(page.getByRole('heading', { level: 1, name: 'Plugins' })).toBeVisible();
	await expect(pluginRow(page, 'whoami')).toHaveCount(0);

	await navigate(page, 'Chat');
	const output = await runCommand(page, '/whoami');
	await expect(output).toContainText('Unknown command /whoami');
});

test.describe('with the service worker', () => {
	// Offline use needs the service worker, which the other tests keep out of the way.
	test.use({ serviceWorkers: 'allow' });

	test('with the network off, a reload still starts the plugin from its cached copy', async ({ page, context }) => {
		await openApp(page);
		const added = await addPlugin(page, whoamiUrl(), 'whoami');
		// Its copy is kept once it has been fetched: a reload before then would fetch it again.
		await expect(rowStatus(added, 'Loaded')).toBeVisible();
		await waitForServiceWorkerControl(page);

		await context.setOffline(true);
		await expectNetworkOff(page, whoamiUrl());

		await page.reload();
		const row = pluginRow(page, 'whoami');
		await expect(rowStatus(row, 'Loaded (cached copy: the URL is unreachable)')).toBeVisible();
		await expect(row).toContainText('/whoami');

		await navigate(page, 'Chat');
		const output = await runCommand(page, '/whoami');
		await expect(messageBody(output)).toContainText('Session: none yet (a new chat)');
		await context.setOffline(false);
	});
});

test('?safe=1 starts with every plugin off', async ({ page }) => {
	await openApp(page);
	await addPlugin(page, whoamiUrl(), 'whoami');

	await page.goto('/plugins?safe=1');
	const row = pluginRow(page, 'whoami');
	await expect(rowStatus(row, 'Off (safe mode)')).toBeVisible();
	await expect(page.getByRole('status').filter({ hasText: 'Safe mode' })).toContainText('every plugin is off');
	await expect(row.getByRole('switch', { name: 'Enabled' })).toBeDisabled();

	await navigate(page, 'Chat');
	const box = page.getByRole('textbox', { name: 'Message' });
	await box.pressSequentially('/who');
	await expect(page.getByRole('listbox', { name: 'Commands' })).toHaveCount(0);
	const output = await runCommand(page, '/whoami');
	await expect(output).toContainText('Unknown command /whoami');

	// Safe mode changed nothing: "Leave safe mode" starts the plugin again.
	await page.goto('/plugins?safe=1');
	await page.getByRole('link', { name: 'Leave safe mode' }).click();
	await expect(page).toHaveURL(/\/plugins$/);
	await expect(rowStatus(pluginRow(page, 'whoami'), 'Loaded')).toBeVisible();
	await expect(page.getByRole('status').filter({ hasText: 'Safe mode' })).toHaveCount(0);
});

test('a plugin URL that answers 404 is not added; one that cannot load says why in its row; the chat keeps working', async ({ page }) => {
	await openApp(page);
	await navigate(page, 'Plugins');
	const url = `${origins.cors}/missing.js`;
	await (await requestAdd(page, url)).getByRole('button', { name: 'Add plugin' }).click();
	await expect(page.getByRole('alert')).toHaveText('The plugin could not be added: The plugin URL answered 404 Not Found.');
	await expect(pluginRow(page, 'missing')).toHaveCount(0);
	// What was typed stays, to correct.
	await expect(page.getByRole('textbox', { name: 'Plugin URL' })).toHaveValue(url);

	const broken = await addPlugin(page, `${origins.cors}/broken.js`, 'broken');
	await expect(rowStatus(broken, 'Failed')).toBeVisible();
	await expect(broken.getByRole('alert')).toContainText('syntax error');

	const noCors = await addPlugin(page, `${origins.noCors}/whoami.js`, 'whoami');
	await expect(rowStatus(noCors, 'Failed')).toBeVisible();
	await expect(noCors.getByRole('alert')).toContainText('Access-Control-Allow-Origin');

	await navigate(page, 'Chat');
	await sendMessage(page, 'Still there?');
	const answer = await waitForAnswer(page);
	await expect(messageBody(answer)).toContainText('Still there?');
	await expect(page.getByRole('alert')).toHaveCount(0);
});

test('the Enabled switch turns the plugin off and on; Remove deletes it', async ({ page }) => {
	await openApp(page);
	const row = await addPlugin(page, whoamiUrl(), 'whoami');
	await expect(rowStatus(row, 'Loaded')).toBeVisible();
	const enabled = row.getByRole('switch', { name: 'Enabled' });

	await enabled.uncheck();
	await expect(rowStatus(row, 'Disabled')).toBeVisible();
	await expect(enabled).not.toBeChecked();
	await navigate(page, 'Chat');
	await expect(await runCommand(page, '/whoami')).toContainText('Unknown command /whoami');

	await navigate(page, 'Plugins');
	await enabled.check();
	await expect(rowStatus(row, 'Loaded')).toBeVisible();
	await navigate(page, 'Chat');
	const output = await runCommand(page, '/whoami');
	await expect(messageBody(output)).toContainText('Platform: web');

	await navigate(page, 'Plugins');
	// Remove asks first (it deletes the plugin's stored data); Escape keeps the plugin.
	await row.getByRole('button', { name: 'Remove' }).click();
	const confirm = page.getByRole('dialog', { name: 'Remove whoami?' });
	await expect(confirm).toContainText('everything it stored in this browser is deleted');
	await page.keyboard.press('Escape');
	await expect(confirm).toBeHidden();
	await expect(rowStatus(row, 'Loaded')).toBeVisible();
	await row.getByRole('button', { name: 'Remove' }).click();
	await confirm.getByRole('button', { name: 'Remove' }).click();
	await expect(row).toHaveCount(0);
	await expect.poll(() => readRows(page, 'palimpsest-default', 'plugins')).toEqual([]);
	await navigate(page, 'Chat');
	await expect(await runCommand(page, '/whoami')).toContainText('Unknown command /whoami');
	await expect(transcript(page)).toBeVisible();
});
