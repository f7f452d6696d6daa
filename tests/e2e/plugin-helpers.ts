// Steps for the plugin browser tests: a second local origin serving test plugins, adding a
// plugin through the Plugins page, running slash commands, a custom provider, and reading
// IndexedDB directly to see what was really stored.
import { expect, type Locator, type Page } from '@playwright/test';
import { copyFile, mkdtemp, readdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { serve } from '../../src/server/serve.mjs';
import { transcript } from './helpers';

const FIXTURES = join(import.meta.dirname, 'fixtures', 'plugins');
const EXAMPLES = join(import.meta.dirname, '..', '..', 'static', 'plugins');

/** A module that fails to parse (kept out of the repository, where lint would trip on it). */
const BROKEN_SOURCE = `export const manifest = { name: 'Broken plugin' };
export function register(ctx) {
	ctx.register_command('broken', () => 'never' ;
}
`;

export interface PluginOrigins {
	/** Origin that sends `Access-Control-Allow-Origin: *`. */
	cors: string;
	/** Another origin serving the same files without any CORS header. */
	noCors: string;
	close(): Promise<void>;
}

/**
 * Serves whoami.js (the shipped example), the fixtures and broken.js from a temporary folder
 * on two more local origins: one with CORS, one without.
 */
export async function startPluginOrigins(): Promise<PluginOrigins> {
	const root = await mkdtemp(join(tmpdir(), 'palimpsest-plugins-'));
	await copyFile(join(EXAMPLES, 'whoami.js'), join(root, 'whoami.js'));
	for (const file of await readdir(FIXTURES)) {
		if (file.endsWith('.js')) await copyFile(join(FIXTURES, file), join(root, file));
	}
	await writeFile(join(root, 'broken.js'), BROKEN_SOURCE);
	const cors = await serve({ root, cors: true, fallback: null });
	const noCors = await serve({ root, cors: false, fallback: null });
	return {
		cors: cors.url,
		noCors: noCors.url,
		async close() {
			await Promise.all([cors.close(), noCors.close()]);
			await rm(root, { recursive: true, force: true });
		}
	};
}

/** Goes to a page through the sidebar link, as a user would (the app, and its plugins, stay loaded). */
export async function navigate(page: Page, link: 'Chat' | 'Plugins' | 'Settings' | 'Prompts' | 'Assistants'): Promise<void> {
	await page.getByRole('navigation', { name: 'Sessions' }).getByRole('link', { name: link, exact: true }).click();
	// "Chat" returns to the open session, or to a new one.
	const path = { Chat: /\/(s\/[^/]+)?$/, Plugins: /\/plugins$/, Settings: /\/settings$/, Prompts: /\/prompts$/, Assistants: /\/assistants$/ }[link];
	await expect(page).toHaveURL(path);
	if (link === 'Chat') await expect(page.getByRole('textbox', { name: 'Message' })).toBeVisible();
	else await expect(page.getByRole('heading', { level: 1, name: link })).toBeVisible();
}

export function pluginRow(page: Page, name: string): Locator {
	return page.getByRole('listitem', { name, exact: true });
}

/** The status text of a plugin row ("Loaded", "Failed", …), matched exactly. */
export function rowStatus(row: Locator, text: string): Locator {
	return row.getByText(text, { exact: true });
}

/** Fills the Plugin URL and presses "Add plugin"; returns the confirmation dialog. */
export async function requestAdd(page: Page, url: string): Promise<Locator> {
	await page.getByRole('textbox', { name: 'Plugin URL' }).fill(url);
	await page.getByRole('button', { name: 'Add plugin' }).click();
	const dialog = page.getByRole('dialog', { name: 'Add this plugin?' });
	await expect(dialog).toBeVisible();
	return dialog;
}

/**
 * Adds a plugin on the Plugins page (navigating there first if needed) and confirms it; returns
 * its row named `name` (the manifest name, or the id from the file name).
 */
export async function addPlugin(page: Page, url: string, name: string): Promise<Locator> {
	if (!/\/plugins(\?|$)/.test(page.url())) await navigate(page, 'Plugins');
	const dialog = await requestAdd(page, url);
	await expect(dialog).toContainText(url);
	await dialog.getByRole('button', { name: 'Add plugin' }).click();
	await expect(dialog).toBeHidden();
	const row = pluginRow(page, name);
	await expect(row).toBeVisible();
	return row;
}

export function commandOutputs(page: Page): Locator {
	return transcript(page).getByRole('article', { name: 'Command output' });
}

/** Types a command and presses Enter; waits for its output and returns it (in a new chat, no session begins for it). */
export async function runCommand(page: Page, text: string, timeout?: number): Promise<Locator> {
	const before = await commandOutputs(page).count();
	const box = page.getByRole('textbox', { name: 'Message' });
	await box.fill(text);
	// The command menu completes a partial name on the first Enter; a full name runs at once.
	await box.press('Enter');
	await expect(commandOutputs(page)).toHaveCount(before + 1, { timeout });
	return commandOutputs(page).last();
}

/** Adds an OpenAI-compatible provider in Settings' Add provider dialog; its model then appears in "Model". */
export async function addCustomProvider(page: Page, baseUrl: string, model: string, apiKey?: string): Promise<string> {
	await navigate(page, 'Settings');
	await page.getByRole('button', { name: 'Add provider' }).click();
	await page.getByRole('combobox', { name: 'Preset' }).selectOption({ label: 'Custom (OpenAI-compatible)' });
	await page.getByRole('textbox', { name: 'Base URL' }).fill(baseUrl);
	await page.getByRole('textbox', { name: 'Model', exact: true }).fill(model);
	// A server of your own: its key, when it has one, is under More options.
	if (apiKey) {
		await page.getByRole('dialog', { name: 'Add provider' }).getByRole('button', { name: 'More options' }).click();
		await page.getByRole('textbox', { name: 'API key' }).fill(apiKey);
	}
	await page.getByRole('button', { name: 'Save' }).click();
	await expect(page.getByRole('dialog', { name: 'Add provider' })).toHaveCount(0);
	await expect(page.getByRole('status', { name: 'Provider status' })).toContainText(`Saved Custom (OpenAI-compatible) · ${model}`);
	// Named by its preset and host, as no name was given.
	return `${model} · Custom (OpenAI-compatible) · ${new URL(baseUrl).host}`;
}

/** Sets "Hook timeout (seconds)" in Settings (saved on change) and checks it stuck. */
export async function setHookTimeout(page: Page, seconds: number): Promise<void> {
	await navigate(page, 'Settings');
	const box = page.getByRole('spinbutton', { name: 'Hook timeout (seconds)' });
	await box.fill(String(seconds));
	await box.press('Tab');
	await expect
		.poll(() => readRows(page, 'palimpsest-default', 'settings'))
		.toContainEqual(expect.objectContaining({ key: 'plugins.hook_callback_timeout', value: seconds }));
}

/** Every row of an IndexedDB object store, read with the raw API (no app code involved). */
export function readRows(page: Page, database: string, store: string): Promise<Record<string, unknown>[]> {
	return page.evaluate(
		([database, store]) =>
			new Promise<Record<string, unknown>[]>((resolve, reject) => {
				const open = indexedDB.open(database);
				open.onerror = () => reject(open.error);
				open.onsuccess = () => {
					const db = open.result;
					if (!db.objectStoreNames.contains(store)) {
						db.close();
						resolve([]);
						return;
					}
					const request = db.transaction(store, 'readonly').objectStore(store).getAll();
					request.onerror = () => reject(request.error);
					request.onsuccess = () => {
						db.close();
						resolve(request.result);
					};
				};
			}),
		[database, store] as const
	);
}

/** The local profile's user id (what `source.user_id` carries). */
export async function readUserId(page: Page): Promise<string> {
	const profiles = await readRows(page, 'palimpsest-meta', 'profiles');
	const user = profiles.find((p) => p.name === 'default')?.user_id;
	if (typeof user !== 'string') throw new Error('No default profile in palimpsest-meta');
	return user;
}

/** Rows of the Hook log table for one plugin id, optionally only those with one outcome. */
export function hookLogRows(page: Page, pluginId: string, outcome?: 'ok' | 'warning' | 'error' | 'timeout' | 'skipped'): Locator {
	let rows = page
		.getByRole('region', { name: 'Hook log' })
		.getByRole('row')
		.filter({ has: page.getByRole('cell', { name: pluginId, exact: true }) });
	if (outcome) rows = rows.filter({ has: page.getByRole('cell', { name: outcome, exact: true }) });
	return rows;
}
