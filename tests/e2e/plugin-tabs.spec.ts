// Plugins across tabs and modes: removing or disabling a plugin in one tab stops it in every
// open tab and leaves its storage empty; a plugin added in safe mode waits to be enabled; a
// URL that cannot be decoded is refused when added; a command that throws is in the Hook log.
import { expect, test, type Page } from './test-base';
import { openApp } from './helpers';
import { addPlugin, hookLogRows, navigate, pluginRow, readRows, requestAdd, rowStatus, runCommand } from './plugin-helpers';
import { usePluginOrigins } from './test-servers';

const origins = usePluginOrigins();

const notesUrl = () => `${origins.cors}/notes.js`;
const storedNotes = async (page: Page) =>
	(await readRows(page, 'palimpsest-default', 'plugin_kv')).filter((row) => row.plugin_id === 'notes');

test('removing a plugin in one tab unloads it in every open tab, and no tab writes to its storage again', async ({ page, context }) => {
	await openApp(page);
	const other = await context.newPage();
	await openApp(other);
	await addPlugin(page, notesUrl(), 'notes');
	// The other tab follows and runs the plugin too.
	await expect.poll(async () => (await runCommand(other, '/note from the other tab')).textContent()).toContain('noted: from the other tab');
	await expect.poll(() => storedNotes(page)).toHaveLength(1);

	const row = pluginRow(page, 'notes');
	await row.getByRole('button', { name: 'Remove' }).click();
	await page.getByRole('dialog', { name: 'Remove notes?' }).getByRole('button', { name: 'Remove' }).click();
	await expect(row).toHaveCount(0);
	await expect.poll(() => readRows(page, 'palimpsest-default', 'plugins')).toEqual([]);

	await expect(await runCommand(other, '/note after removal')).toContainText('Unknown command /note');
	await navigate(other, 'Plugins');
	await expect(pluginRow(other, 'notes')).toHaveCount(0);
	await expect.poll(() => storedNotes(other)).toEqual([]);
});

test('disabling a plugin in one tab unloads it in every open tab', async ({ page, context }) => {
	await openApp(page);
	const other = await context.newPage();
	await openApp(other);
	const row = await addPlugin(page, notesUrl(), 'notes');
	await expect.poll(async () => (await runCommand(other, '/note one')).textContent()).toContain('noted: one');

	await row.getByRole('switch', { name: 'Enabled' }).uncheck();
	await expect(rowStatus(row, 'Disabled')).toBeVisible();
	// The change reaches the other tab through the database, a moment later.
	await expect.poll(async () => (await runCommand(other, '/note two')).textContent()).toContain('Unknown command /note');
	await navigate(other, 'Plugins');
	await expect(rowStatus(pluginRow(other, 'notes'), 'Disabled')).toBeVisible();
	await expect(pluginRow(other, 'notes').getByRole('switch', { name: 'Enabled' })).not.toBeChecked();
	// Disabling keeps what the plugin stored.
	await expect.poll(async () => (await storedNotes(other)).length).toBeGreaterThanOrEqual(1);
});

test('a plugin added in safe mode is stored switched off and runs only once enabled', async ({ page }) => {
	await page.goto('/plugins?safe=1');
	await expect(page.getByRole('heading', { level: 1, name: 'Plugins' })).toBeVisible();
	const dialog = await requestAdd(page, notesUrl());
	await expect(dialog).toContainText('Safe mode is on');
	await dialog.getByRole('button', { name: 'Add plugin' }).click();
	const row = pluginRow(page, 'notes');
	await expect(rowStatus(row, 'Off (safe mode)')).toBeVisible();
	await expect(row.getByRole('switch', { name: 'Enabled' })).not.toBeChecked();
	await navigate(page, 'Chat');
	await expect(await runCommand(page, '/note in safe mode')).toContainText('Unknown command /note');

	// Leaving safe mode does not start it: the user has not turned it on yet.
	await page.goto('/plugins');
	await expect(rowStatus(row, 'Disabled')).toBeVisible();
	await navigate(page, 'Chat');
	await expect(await runCommand(page, '/note still off')).toContainText('Unknown command /note');
	await navigate(page, 'Plugins');
	await row.getByRole('switch', { name: 'Enabled' }).check();
	await expect(rowStatus(row, 'Loaded')).toBeVisible();
	await navigate(page, 'Chat');
	await expect(await runCommand(page, '/note now on')).toContainText('noted: now on');
});

test('a URL with malformed percent-encoding is refused when added, saying why', async ({ page }) => {
	await page.goto('/plugins');
	await page.getByRole('textbox', { name: 'Plugin URL' }).fill(`${origins.cors}/%E0%A4%A.js`);
	await page.getByRole('button', { name: 'Add plugin' }).click();
	await expect(page.getByRole('alert')).toContainText('has a broken percent-encoding');
	await expect(page.getByRole('alert')).not.toContainText('URI malformed');
	await expect(page.getByRole('dialog', { name: 'Add this plugin?' })).toHaveCount(0);
	await expect.poll(() => readRows(page, 'palimpsest-default', 'plugins')).toEqual([]);
});

test('a failing slash command is in the Hook log under its plugin and name', async ({ page }) => {
	await openApp(page);
	await addPlugin(page, notesUrl(), 'notes');
	await navigate(page, 'Chat');
	await expect(await runCommand(page, '/forget')).toContainText('/forget failed: nothing to forget');
	await navigate(page, 'Plugins');
	const failed = hookLogRows(page, 'notes', 'error').filter({ has: page.getByRole('cell', { name: '/forget', exact: true }) });
	await expect(failed).toHaveCount(1);
	await expect(failed).toContainText('nothing to forget');
	await expect(hookLogRows(page, 'notes', 'ok').filter({ has: page.getByRole('cell', { name: 'register(ctx)', exact: true }) })).toHaveCount(1);
});
