// A session whose provider is not set up in this browser (removed in Settings, or the session
// came from another browser through export and import) names that provider as the user called
// it and its server, offers adding a provider for that server or choosing another model, and a
// message sent meanwhile says the same and stays in the Message box.
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, test, type Page } from './test-base';
import { messageBody, openApp, sendMessage, sessionLinks, userMessages, waitForAnswer } from './helpers';
import { navigate, readRows } from './plugin-helpers';
import { chooseModel, modelLabel, OFFLINE_LABEL } from './provider-helpers';
import { secondDevice } from './sync-helpers';
import { useMockProvider } from './test-servers';

const mock = useMockProvider();

/** Adds the mock as an OpenAI-compatible provider called `name`; returns its model's label in "Model". */
async function addNamedProvider(page: Page, name: string): Promise<string> {
	await navigate(page, 'Settings');
	await page.getByRole('button', { name: 'Add provider' }).click();
	await page.getByRole('combobox', { name: 'Preset' }).selectOption({ label: 'Custom (OpenAI-compatible)' });
	await page.getByRole('textbox', { name: 'Base URL' }).fill(`${mock.url}/v1`);
	await page.getByRole('textbox', { name: 'Model', exact: true }).fill('mock-model');
	await page.getByRole('dialog', { name: 'Add provider' }).getByRole('button', { name: 'More options' }).click();
	await page.getByRole('textbox', { name: 'Name', exact: true }).fill(name);
	await page.getByRole('button', { name: 'Save' }).click();
	await expect(page.getByRole('status', { name: 'Provider status' })).toContainText('Saved Custom (OpenAI-compatible) · mock-model');
	return modelLabel('mock-model', name);
}

const notice = (page: Page) => page.getByRole('region', { name: 'Model not set up here' });
const picker = (page: Page) => page.getByRole('combobox', { name: 'Model', exact: true });

/**
 * The notice names the provider and never its id (nor does anything else on the page), a
 * message sent meanwhile is refused in the same words and stays in the Message box, and
 * "Choose another model" leads to a model that answers.
 */
async function expectNamedAndReplaceable(page: Page, name: string, database = 'palimpsest-default'): Promise<void> {
	await expect(notice(page)).toContainText(`This chat used mock-model from ${name} at ${mock.url}/v1, which this device has no provider for.`);
	await expect(notice(page).getByRole('button', { name: 'Add provider' })).toBeVisible();
	await expect(picker(page).locator('option:checked')).toHaveText(`mock-model · ${name} (not set up here)`);
	const box = page.getByRole('textbox', { name: 'Message' });
	await box.fill('Still there?');
	await box.press('Enter');
	await expect(page.getByRole('alert')).toHaveText(`mock-model from ${name} is not set up in this browser: choose another model to go on.`);
	await expect(box).toHaveValue('Still there?');
	const [session] = await readRows(page, database, 'sessions');
	expect(session.provider).toMatch(/^[0-9a-f-]{36}$/);
	await expect(page.locator('body')).not.toContainText(String(session.provider));

	await notice(page).getByRole('button', { name: 'Choose another model' }).click();
	await expect(picker(page)).toBeFocused();
	await picker(page).selectOption({ label: OFFLINE_LABEL });
	await expect(notice(page)).toHaveCount(0);
	await box.fill('echo: on the offline model');
	await box.press('Enter');
	await expect(userMessages(page).last()).toContainText('echo: on the offline model');
	await expect(messageBody(await waitForAnswer(page))).toHaveText('on the offline model');
}

test('a session whose provider was removed names it and offers choosing another model', async ({ page }) => {
	await openApp(page);
	const label = await addNamedProvider(page, 'Work server');
	await chooseModel(page, label);
	await sendMessage(page, 'Through the work server');
	await expect(messageBody(await waitForAnswer(page))).toHaveText('Mock answer to: Through the work server');

	await navigate(page, 'Settings');
	await page.getByRole('button', { name: 'Remove Work server mock-model' }).click();
	await page.getByRole('dialog', { name: 'Remove this provider?' }).getByRole('button', { name: 'Remove' }).click();
	await expect(page.getByRole('button', { name: 'Remove Work server mock-model' })).toHaveCount(0);
	await navigate(page, 'Chat');
	await expectNamedAndReplaceable(page, 'Work server');
});

test('a session imported from another browser names its provider there and offers choosing another model', async ({ page, browser, pageErrors }) => {
	const dir = await mkdtemp(join(tmpdir(), 'palimpsest-moved-'));
	try {
		await openApp(page);
		const label = await addNamedProvider(page, 'Home lab');
		await chooseModel(page, label);
		await sendMessage(page, 'Written at home');
		await waitForAnswer(page);
		await navigate(page, 'Settings');
		const download = page.waitForEvent('download');
		await page.getByRole('button', { name: 'Export', exact: true }).click();
		const file = join(dir, (await download).suggestedFilename());
		await (await download).saveAs(file);
		expect(await readFile(file, 'utf8')).toContain('Home lab');

		// Another browser, with no provider of its own.
		const other = await secondDevice(browser);
		pageErrors.watch(other.context());
		await navigate(other, 'Settings');
		const chooser = other.waitForEvent('filechooser');
		await other.getByRole('button', { name: 'Import', exact: true }).click();
		await (await chooser).setFiles(file);
		await expect(other.getByRole('status', { name: 'Transfer status' })).toHaveText('Imported 1 session (2 messages).');
		await sessionLinks(other).filter({ hasText: 'Written at home' }).click();
		await expect(messageBody(userMessages(other))).toHaveText(['Written at home']);
		await expectNamedAndReplaceable(other, 'Home lab');
	} finally {
		await rm(dir, { recursive: true, force: true });
	}
});
