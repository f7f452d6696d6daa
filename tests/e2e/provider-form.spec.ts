// Adding a provider without guessing: a dialog of the three fields a new user needs, the rest
// under More options; Test connection needs no model and offers the server's
// models in the Model field (typing any other stays possible), and a provider has a Name, by
// default its preset and host, which the Model picker shows.
import { expect, test, type Page } from './test-base';
import { openApp } from './helpers';
import { expectNoSeriousIssues } from './accessibility';
import { navigate } from './plugin-helpers';
import { chooseModel, modelLabel } from './provider-helpers';
import { useMockProvider } from './test-servers';

const mock = useMockProvider();

/** The fields of the Add provider dialog a user sees, by name. */
const shownFields = (page: Page) => page.getByRole('dialog', { name: 'Add provider' }).getByRole('textbox').or(page.getByRole('dialog', { name: 'Add provider' }).getByRole('combobox'));

test('Add provider is a dialog of three fields: the preset, its key or its address, and the model; More options holds the rest; Escape cancels', async ({ page }) => {
	await openApp(page);
	await navigate(page, 'Settings');
	const add = page.getByRole('button', { name: 'Add provider' });
	await add.click();
	const dialog = page.getByRole('dialog', { name: 'Add provider' });
	await expect(dialog).toBeVisible();
	await expect(dialog.getByRole('combobox', { name: 'Preset' })).toBeFocused();
	// A cloud provider: its key. Its address is filled in already.
	await expect(shownFields(page)).toHaveCount(3);
	await expect(dialog.getByRole('textbox', { name: 'API key' })).toBeVisible();
	await expect(dialog.getByRole('textbox', { name: 'Model', exact: true })).toBeVisible();
	await expect(dialog.getByRole('textbox', { name: 'Base URL' })).toBeHidden();
	await expectNoSeriousIssues(page, 'dialog[open]');
	// A server of your own: its address, the key being optional.
	await dialog.getByRole('combobox', { name: 'Preset' }).selectOption({ label: 'Ollama' });
	await expect(shownFields(page)).toHaveCount(3);
	await expect(dialog.getByRole('textbox', { name: 'Base URL' })).toHaveValue('http://localhost:11434/v1');
	await expect(dialog.getByRole('textbox', { name: 'API key' })).toBeHidden();

	const more = dialog.getByRole('button', { name: 'More options' });
	await expect(more).toHaveAttribute('aria-expanded', 'false');
	await more.click();
	await expect(more).toHaveAttribute('aria-expanded', 'true');
	await expect(dialog.getByRole('textbox', { name: 'API key' })).toBeVisible();
	await expect(dialog.getByRole('textbox', { name: 'Name', exact: true })).toBeVisible();
	await expect(dialog.getByRole('checkbox', { name: 'Text only' })).toBeVisible();
	await expectNoSeriousIssues(page, 'dialog[open]');

	await page.keyboard.press('Escape');
	await expect(dialog).toHaveCount(0);
	await expect(add).toBeFocused();
	await expect(page.getByRole('button', { name: /^Edit / })).toHaveCount(0);
});

test('with no model filled in, Test connection lists the server\'s models in Model, where another can still be typed', async ({ page }) => {
	await openApp(page);
	await navigate(page, 'Settings');
	await page.getByRole('button', { name: 'Add provider' }).click();
	await page.getByRole('combobox', { name: 'Preset' }).selectOption({ label: 'Custom (OpenAI-compatible)' });
	await page.getByRole('textbox', { name: 'Base URL' }).fill(`${mock.url}/v1`);
	await expect(page.getByRole('textbox', { name: 'Model', exact: true })).toHaveValue('');

	await page.getByRole('button', { name: 'Test connection' }).click();
	await expect(page.getByRole('status', { name: 'Provider status' })).toHaveText('Connected. Model offers the 2 models it lists: mock-model, mock-large.');
	// A field that drops down the listed models, the first one filled in.
	const model = page.getByRole('combobox', { name: 'Model', exact: true });
	await expect(model).toHaveValue('mock-model');
	await expect.poll(() => model.evaluate((input: HTMLInputElement) => [...(input.list?.options ?? [])].map((option) => option.value))).toEqual(['mock-model', 'mock-large']);
	expect(mock.requests.filter((r) => r.path === '/v1/models')).toHaveLength(1);
	await model.fill('a-model-it-does-not-list');
	await expect(model).toHaveValue('a-model-it-does-not-list');
	await model.fill('mock-large');
	await page.getByRole('button', { name: 'Save' }).click();
	await expect(page.getByRole('status', { name: 'Provider status' })).toHaveText('Saved Custom (OpenAI-compatible) · mock-large.');
});

/** Adds an OpenAI provider of the mock's, named `name` (left empty when null). */
async function addNamedProvider(page: Page, name: string | null): Promise<void> {
	await navigate(page, 'Settings');
	await page.getByRole('button', { name: 'Add provider' }).click();
	await page.getByRole('combobox', { name: 'Preset' }).selectOption({ label: 'OpenAI (Chat Completions)' });
	await page.getByRole('dialog', { name: 'Add provider' }).getByRole('button', { name: 'More options' }).click();
	await page.getByRole('textbox', { name: 'Base URL' }).fill(`${mock.url}/v1`);
	await page.getByRole('textbox', { name: 'API key' }).fill('sk-test');
	await page.getByRole('textbox', { name: 'Model', exact: true }).fill('mock-model');
	const field = page.getByRole('textbox', { name: 'Name', exact: true });
	// Left empty, the default shows in its place.
	await expect(field).toHaveValue('');
	await expect(field).toHaveAttribute('placeholder', `OpenAI (Chat Completions) · ${new URL(mock.url).host}`);
	if (name) await field.fill(name);
	await page.getByRole('button', { name: 'Save' }).click();
	await expect(page.getByRole('status', { name: 'Provider status' })).toContainText('Saved OpenAI (Chat Completions) · mock-model');
}

test("a provider's Name, by default its preset and host, is what the Model picker shows", async ({ page }) => {
	await openApp(page);
	const host = new URL(mock.url).host;
	await addNamedProvider(page, null);
	await addNamedProvider(page, 'Team proxy');

	await chooseModel(page, modelLabel('mock-model', `OpenAI (Chat Completions) · ${host}`));
	const picker = page.getByRole('combobox', { name: 'Model', exact: true });
	await expect(picker.getByRole('option', { name: 'mock-model · Team proxy', exact: true })).toHaveCount(1);
	await chooseModel(page, 'mock-model · Team proxy');
	await expect(picker).toHaveAttribute('title', 'mock-model · Team proxy');

	// Settings lists it by that name too, and the form keeps it for an edit.
	await navigate(page, 'Settings');
	await expect(page.getByRole('listitem').filter({ hasText: 'Team proxy · mock-model' })).toHaveCount(1);
	await page.getByRole('button', { name: 'Edit Team proxy mock-model' }).click();
	await expect(page.getByRole('textbox', { name: 'Name', exact: true })).toHaveValue('Team proxy');
});
