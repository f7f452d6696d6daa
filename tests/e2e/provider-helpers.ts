// Steps for the browser tests of real providers against the mock: adding a provider of a
// preset, choosing its model, turning on the provider's own compaction, and reading what the
// hook log recorded of post_compaction.
import { expect, type Locator, type Page } from '@playwright/test';
import { navigate } from './plugin-helpers';

/** Adds a provider of `preset` (its label in "Preset") in Settings' Add provider dialog; returns its model's label in "Model". */
export async function addProvider(page: Page, preset: string, baseUrl: string, model: string, apiKey = 'sk-test'): Promise<string> {
	await navigate(page, 'Settings');
	await page.getByRole('button', { name: 'Add provider' }).click();
	await page.getByRole('combobox', { name: 'Preset' }).selectOption({ label: preset });
	// The dialog asks for a key or an address, and the model; the other is under More options.
	await page.getByRole('dialog', { name: 'Add provider' }).getByRole('button', { name: 'More options' }).click();
	await page.getByRole('textbox', { name: 'Base URL' }).fill(baseUrl);
	await page.getByRole('textbox', { name: 'API key' }).fill(apiKey);
	await page.getByRole('textbox', { name: 'Model', exact: true }).fill(model);
	await page.getByRole('button', { name: 'Save' }).click();
	await expect(page.getByRole('dialog', { name: 'Add provider' })).toHaveCount(0);
	await expect(page.getByRole('status', { name: 'Provider status' })).toContainText(`Saved ${preset} · ${model}`);
	return modelLabel(model, `${preset} · ${new URL(baseUrl).host}`);
}

/** A model as "Model" lists it: the model first, then its provider's name (by default its preset and host). */
export function modelLabel(model: string, provider: string): string {
	return `${model} · ${provider}`;
}

/** The built-in offline model as "Model" lists it. */
export const OFFLINE_LABEL = modelLabel('offline-mini', 'Offline model (built-in)');

export async function useNativeCompaction(page: Page): Promise<void> {
	await navigate(page, 'Settings');
	const box = page.getByRole('checkbox', { name: "Use the provider's own compaction when it has one" });
	await box.check();
	await expect(box).toBeChecked();
}

/** Goes to the chat and picks `label` in "Model" (focused first, as a user's choosing lists every provider's models). */
export async function chooseModel(page: Page, label: string): Promise<void> {
	if (!/\/(s\/[^/]+)?$/.test(new URL(page.url()).pathname)) await navigate(page, 'Chat');
	const picker = page.getByRole('combobox', { name: 'Model', exact: true });
	await picker.focus();
	await picker.selectOption({ label });
}

/** The Hook log's post_compaction rows (Plugins page), newest first. */
export function postCompactionRows(page: Page): Locator {
	return page.getByRole('region', { name: 'Hook log' }).getByRole('row').filter({ has: page.getByRole('cell', { name: 'post_compaction', exact: true }) });
}

/** Opens the Plugins page and expects exactly these post_compaction events, as `kind/reason`, oldest first. */
export async function expectCompactions(page: Page, expected: string[]): Promise<void> {
	await navigate(page, 'Plugins');
	const rows = postCompactionRows(page);
	await expect(rows).toHaveCount(expected.length);
	const seen = async () => (await rows.allTextContents()).map((text) => `${/kind=(\w+)/.exec(text)?.[1]}/${/reason=(\w+)/.exec(text)?.[1]}`).reverse();
	await expect.poll(seen).toEqual(expected);
}
