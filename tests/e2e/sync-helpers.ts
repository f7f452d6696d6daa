// Steps for the two-device sync tests: a database of its own on the sync server, a second
// device (a browser context with its own IndexedDB), and Start sync in Settings.
import type { Browser } from '@playwright/test';
import { openApp } from './helpers';
import { navigate } from './plugin-helpers';
import { expect, test, type Page } from './test-base';

/** A new, empty database on the sync server at `server`; its URL. */
export async function createDatabase(server: string): Promise<string> {
	const url = `${server}/palimpsest-${crypto.randomUUID()}`;
	expect((await fetch(url, { method: 'PUT' })).status).toBe(201);
	return url;
}

/** Turns sync on in Settings and waits until it is up to date; back to the chat after. */
export async function startSync(page: Page, database: string): Promise<void> {
	await navigate(page, 'Settings');
	const sync = page.getByRole('region', { name: 'Sync' });
	await sync.getByRole('textbox', { name: 'Sync server' }).fill(database);
	await sync.getByRole('button', { name: 'Start sync' }).click();
	await expect(sync.getByRole('status', { name: 'Sync status' })).toHaveText(/^Up to date/);
	await navigate(page, 'Chat');
}

/** A second device: a browser context of its own, with the app open. */
export async function secondDevice(browser: Browser): Promise<Page> {
	const context = await browser.newContext({ baseURL: String(test.info().project.use.baseURL) });
	const page = await context.newPage();
	await openApp(page);
	return page;
}
