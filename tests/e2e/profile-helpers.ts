// Steps for the profile and export/import browser tests: the Profile controls in Settings, and
// what the browser really holds (databases, session rows).
import { expect, type Page } from '@playwright/test';
import { navigate } from './plugin-helpers';

export function profileBox(page: Page) {
	return page.getByRole('combobox', { name: 'Profile' });
}

/** The label of the option chosen in "Profile". */
export function chosenProfile(page: Page) {
	return profileBox(page).locator('option:checked');
}

/** Creates a profile from Settings and, asked, switches to it; the app reloads into it. */
export async function createProfile(page: Page, name: string): Promise<void> {
	await navigate(page, 'Settings');
	await page.getByRole('button', { name: 'New profile' }).click();
	const dialog = page.getByRole('dialog', { name: 'New profile' });
	await dialog.getByRole('textbox', { name: 'Profile name' }).fill(name);
	await dialog.getByRole('button', { name: 'Create profile' }).click();
	await page.getByRole('dialog', { name: `Switch to “${name}” now?` }).getByRole('button', { name: 'Switch now' }).click();
	await expect(chosenProfile(page)).toHaveText(name);
	await expect(page.getByText(`This tab uses “${name}”`)).toBeVisible();
}

/** Chooses a profile in "Profile" and presses "Switch profile"; the app reloads into it. */
export async function switchProfile(page: Page, name: string): Promise<void> {
	if (!/\/settings$/.test(page.url())) await navigate(page, 'Settings');
	await profileBox(page).selectOption({ label: name });
	await page.getByRole('button', { name: 'Switch profile' }).click();
	await expect(page.getByText(`This tab uses “${name}”`)).toBeVisible();
	await expect(page.getByRole('button', { name: 'Switch profile' })).toBeDisabled();
}

/** Names of the IndexedDB databases this origin has. */
export function databaseNames(page: Page): Promise<string[]> {
	return page.evaluate(async () => (await indexedDB.databases()).map((d) => d.name ?? ''));
}
