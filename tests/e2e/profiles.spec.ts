// Profiles in a real browser: each profile has its own sessions, settings, plugins and local
// user; the active one survives a reload; renaming keeps keys; deleting removes the database.
import { expect, test } from './test-base';
import { openApp, sendMessage, sessionLinks, sessionIdFromUrl, transcript, waitForAnswer, newSession } from './helpers';
import { addPlugin, navigate, pluginRow, readRows, runCommand } from './plugin-helpers';
import { chosenProfile, createProfile, databaseNames, profileBox, switchProfile } from './profile-helpers';

test('switch profile and back: each profile sees only its own sessions, settings and plugins; the active one survives a reload', async ({ page }) => {
	await openApp(page);
	await sendMessage(page, 'echo: said in Default');
	await waitForAnswer(page);
	const defaultUserId = async () => (await readRows(page, 'palimpsest-meta', 'profiles')).find((p) => p.name === 'default')?.user_id;
	await expect.poll(defaultUserId).toMatch(/^web-user-/);
	const defaultUser = await defaultUserId();

	await createProfile(page, 'Work');
	await expect(sessionLinks(page)).toHaveCount(0);
	await page.getByRole('radio', { name: 'Dark' }).check();
	await expect(page.getByRole('status', { name: 'Save status' })).toHaveText('Saved');
	await addPlugin(page, '/plugins/whoami.js', 'whoami');
	await navigate(page, 'Chat');
	await sendMessage(page, 'echo: said in Work');
	await waitForAnswer(page);
	const whoami = await runCommand(page, '/whoami');
	// The plugin's command sees this profile's id and its own local user.
	await expect(whoami).toContainText('Profile: work');
	await expect(whoami).toContainText(/Session key: web:work:/);
	await expect(whoami).toContainText(/User: You \(web-user-[^)]+\)/);
	await expect(whoami).not.toContainText(`User: You (${defaultUser})`);

	await page.reload();
	await expect(sessionLinks(page)).toHaveText(['echo: said in Work']);
	await expect(page.locator('html')).toHaveAttribute('data-theme', 'dark');

	// Back to Default with the keyboard: choose in the list, then Switch profile.
	await navigate(page, 'Settings');
	await profileBox(page).focus();
	await page.keyboard.press('ArrowUp');
	await expect(chosenProfile(page)).toHaveText('Default');
	await page.keyboard.press('Tab');
	await expect(page.getByRole('button', { name: 'Switch profile' })).toBeFocused();
	await page.keyboard.press('Enter');
	await expect(page.getByText('This tab uses “Default”')).toBeVisible();
	await expect(sessionLinks(page)).toHaveText(['echo: said in Default']);
	await expect(page.locator('html')).not.toHaveAttribute('data-theme', /.+/);
	await expect(page.getByRole('radio', { name: 'System' })).toBeChecked();
	await navigate(page, 'Plugins');
	await expect(pluginRow(page, 'whoami')).toHaveCount(0);

	await page.reload();
	await navigate(page, 'Settings');
	await expect(chosenProfile(page)).toHaveText('Default');

	await switchProfile(page, 'Work');
	await expect(sessionLinks(page)).toHaveText(['echo: said in Work']);
	await expect(page.locator('html')).toHaveAttribute('data-theme', 'dark');
	await navigate(page, 'Plugins');
	await expect(pluginRow(page, 'whoami')).toBeVisible();
});

test('renaming keeps session keys; deleting asks with the session count, Escape cancels, and removes the whole database', async ({ page }) => {
	await openApp(page);
	await createProfile(page, 'Temp');
	await navigate(page, 'Chat');
	await sendMessage(page, 'echo: first');
	await waitForAnswer(page);
	const first = sessionIdFromUrl(page);
	await newSession(page);
	await sendMessage(page, 'echo: second');
	await waitForAnswer(page);

	await navigate(page, 'Settings');
	await page.getByRole('button', { name: 'Rename profile' }).click();
	const rename = page.getByRole('dialog', { name: 'Rename the profile “Temp”' });
	await rename.getByRole('textbox', { name: 'Profile name' }).fill('default');
	await rename.getByRole('button', { name: 'Rename' }).click();
	await expect(rename.getByRole('alert')).toHaveText('There is already a profile named “Default”.');
	await rename.getByRole('textbox', { name: 'Profile name' }).fill('Scratch');
	await rename.getByRole('textbox', { name: 'Profile name' }).press('Enter');
	await expect(rename).toBeHidden();
	await expect(chosenProfile(page)).toHaveText('Scratch');
	await expect(page.getByText('This tab uses “Scratch”')).toBeVisible();
	const rows = await readRows(page, 'palimpsest-temp', 'sessions');
	expect(rows.map((r) => [r.profile, r.session_key]).sort()).toEqual(rows.map((r) => ['temp', `web:temp:${r.id}`]).sort());
	await sessionLinks(page).filter({ hasText: 'first' }).click();
	await expect(page).toHaveURL(new RegExp(`/s/${first}$`));
	await expect(transcript(page)).toContainText('echo: first');

	await navigate(page, 'Settings');
	await page.getByRole('button', { name: 'Delete profile' }).click();
	const confirm = page.getByRole('dialog', { name: 'Delete the profile “Scratch”?' });
	await expect(confirm).toContainText('Its 2 sessions, its settings (provider keys included) and its plugins');
	await page.keyboard.press('Escape');
	await expect(confirm).toBeHidden();
	await expect.poll(() => databaseNames(page)).toContain('palimpsest-temp');

	await page.getByRole('button', { name: 'Delete profile' }).click();
	await confirm.getByRole('button', { name: 'Delete' }).click();
	await expect(page.getByText('This tab uses “Default”')).toBeVisible();
	await expect(profileBox(page).getByRole('option')).toHaveText(['Default']);
	await expect.poll(() => databaseNames(page)).not.toContain('palimpsest-temp');
	await expect.poll(async () => (await readRows(page, 'palimpsest-meta', 'profiles')).map((p) => p.name)).toEqual(['default']);
	// The root profile cannot be deleted.
	await expect(page.getByRole('button', { name: 'Delete profile' })).toBeDisabled();
});

test('a profile deleted in one tab sends another tab that had it open to the default profile, without re-creating it', async ({ page, context }) => {
	await openApp(page);
	await createProfile(page, 'Shared');
	await navigate(page, 'Chat');
	await sendMessage(page, 'echo: in shared');
	await waitForAnswer(page);

	const other = await context.newPage();
	await other.goto('/settings');
	await expect(other.getByText('This tab uses “Shared”')).toBeVisible();
	await switchProfile(other, 'Default');
	// The first tab keeps its profile until it reloads.
	await expect(sessionLinks(page)).toHaveText(['echo: in shared']);

	await profileBox(other).selectOption({ label: 'Shared' });
	await other.getByRole('button', { name: 'Delete profile' }).click();
	await other.getByRole('dialog', { name: 'Delete the profile “Shared”?' }).getByRole('button', { name: 'Delete' }).click();
	await expect(other.getByRole('status', { name: 'Profile status' })).toHaveText('Deleted the profile “Shared”.');

	await expect(sessionLinks(page)).toHaveCount(0);
	await navigate(page, 'Settings');
	await expect(page.getByText('This tab uses “Default”')).toBeVisible();
	await expect.poll(() => databaseNames(page)).not.toContain('palimpsest-shared');
	await expect(profileBox(page).getByRole('option')).toHaveText(['Default']);
});

test('creating a profile asks before switching to it; Cancel stays in this one with the new profile ready to switch to', async ({ page }) => {
	await openApp(page);
	await sendMessage(page, 'echo: stays here');
	await waitForAnswer(page);
	await navigate(page, 'Settings');
	await page.getByRole('button', { name: 'New profile' }).click();
	const naming = page.getByRole('dialog', { name: 'New profile' });
	await naming.getByRole('textbox', { name: 'Profile name' }).fill('Work');
	await naming.getByRole('button', { name: 'Create profile' }).click();
	const ask = page.getByRole('dialog', { name: 'Switch to “Work” now?', exact: true });
	await expect(ask).toContainText('“Default” keeps everything it has');
	await ask.getByRole('button', { name: 'Cancel' }).click();
	await expect(ask).toBeHidden();
	await expect(page.getByRole('status', { name: 'Profile status' })).toHaveText('Created “Work”. Press Switch profile when you want to use it.');
	await expect(page.getByText('This tab uses “Default”')).toBeVisible();
	await expect(chosenProfile(page)).toHaveText('Work');
	await expect(sessionLinks(page)).toHaveText(['echo: stays here']);

	await page.getByRole('button', { name: 'Switch profile' }).click();
	await expect(page.getByText('This tab uses “Work”')).toBeVisible();
	await expect(sessionLinks(page)).toHaveCount(0);
});
