// A session continued on another device through a sync server: a device with a provider for the
// same server keeps the session's model there and sends to it; a device with none names the
// provider by its server and model (never its id), and Add provider opens the provider form
// with them filled in, after which the chat goes on.
import { expect, test, type Page } from './test-base';
import { messageBody, openApp, sendAndWait, sessionLinks, waitForAnswer } from './helpers';
import { addCustomProvider, navigate, readRows } from './plugin-helpers';
import { chooseModel, modelLabel } from './provider-helpers';
import { createDatabase, secondDevice, startSync } from './sync-helpers';
import { useCouchServer, useMockProvider } from './test-servers';

const couch = useCouchServer();
const mock = useMockProvider();

const notice = (page: Page) => page.getByRole('region', { name: 'Model not set up here' });
const picker = (page: Page) => page.getByRole('combobox', { name: 'Model', exact: true });
/** The model the mock was asked for last. */
const lastModel = () => mock.requests.filter((entry) => entry.path.endsWith('/chat/completions')).at(-1)?.body?.model;

/** On the laptop: the mock as a provider called "Work server", a session on it with one answer, synced. */
async function laptopSession(page: Page, database: string): Promise<void> {
	await openApp(page);
	await navigate(page, 'Settings');
	await page.getByRole('button', { name: 'Add provider' }).click();
	await page.getByRole('combobox', { name: 'Preset' }).selectOption({ label: 'Custom (OpenAI-compatible)' });
	await page.getByRole('textbox', { name: 'Base URL' }).fill(`${mock.url}/v1`);
	await page.getByRole('textbox', { name: 'Model', exact: true }).fill('mock-model');
	await page.getByRole('dialog', { name: 'Add provider' }).getByRole('button', { name: 'More options' }).click();
	await page.getByRole('textbox', { name: 'Name', exact: true }).fill('Work server');
	await page.getByRole('button', { name: 'Save' }).click();
	await expect(page.getByRole('status', { name: 'Provider status' })).toContainText('Saved Custom (OpenAI-compatible) · mock-model');
	await chooseModel(page, modelLabel('mock-model', 'Work server'));
	await sendAndWait(page, 'Hello from the laptop');
	await startSync(page, database);
}

test('on a device with a provider for the same server, the session keeps its model there and sends to it', async ({ page, browser }) => {
	const database = await createDatabase(couch.url);
	await laptopSession(page, database);

	const phone = await secondDevice(browser);
	// The phone's provider is at the same server, set up with another model.
	const phoneLabel = await addCustomProvider(phone, `${mock.url}/v1`, 'other-model');
	await startSync(phone, database);
	await expect(sessionLinks(phone)).toHaveText(['Hello from the laptop'], { timeout: 20_000 });
	await sessionLinks(phone).first().click();
	await expect(picker(phone).locator('option:checked')).toHaveText(phoneLabel.replace('other-model', 'mock-model'));
	await expect(notice(phone)).toHaveCount(0);

	const answer = await sendAndWait(phone, 'And from the phone');
	await expect(messageBody(answer)).toHaveText('Mock answer to: And from the phone');
	await expect.poll(lastModel).toBe('mock-model');
	await phone.context().close();
});

test('on a device with no provider for that server, the chat names its server and model, and Add provider fills them in', async ({ page, browser }) => {
	const database = await createDatabase(couch.url);
	await laptopSession(page, database);
	const [laptopProvider] = (await readRows(page, 'palimpsest-default', 'settings')).find((row) => row.key === 'providers')!.value as { id: string }[];

	const phone = await secondDevice(browser);
	await startSync(phone, database);
	await expect(sessionLinks(phone)).toHaveText(['Hello from the laptop'], { timeout: 20_000 });
	await sessionLinks(phone).first().click();
	const server = `${mock.url}/v1`;
	await expect(notice(phone)).toContainText(`This chat used mock-model from Work server at ${server}, which this device has no provider for.`);
	const box = phone.getByRole('textbox', { name: 'Message' });
	await box.fill('Still there?');
	await box.press('Enter');
	await expect(phone.getByRole('alert')).toHaveText('mock-model from Work server is not set up in this browser: choose another model to go on.');
	await expect(phone.locator('body')).not.toContainText(laptopProvider.id);
	const sessionUrl = phone.url();

	await notice(phone).getByRole('button', { name: 'Add provider' }).click();
	await expect(phone.getByRole('heading', { level: 1, name: 'Settings' })).toBeVisible();
	await expect(phone.getByRole('combobox', { name: 'Preset' })).toHaveValue('custom');
	await expect(phone.getByRole('textbox', { name: 'Base URL' })).toHaveValue(server);
	await expect(phone.getByRole('textbox', { name: 'Model', exact: true })).toHaveValue('mock-model');
	await phone.getByRole('dialog', { name: 'Add provider' }).getByRole('button', { name: 'More options' }).click();
	await expect(phone.getByRole('textbox', { name: 'API key' })).toHaveValue('');
	await phone.getByRole('button', { name: 'Save' }).click();

	// Back in the chat, which goes on with the new provider and the same model.
	await expect(phone).toHaveURL(sessionUrl);
	await expect(notice(phone)).toHaveCount(0);
	await expect(picker(phone).locator('option:checked')).toHaveText(modelLabel('mock-model', `Custom (OpenAI-compatible) · ${new URL(mock.url).host}`));
	await box.fill('Back on track');
	await box.press('Enter');
	await expect(messageBody(await waitForAnswer(phone))).toHaveText('Mock answer to: Back on track');
	await expect.poll(lastModel).toBe('mock-model');

	// The laptop still sends through its own provider.
	await expect(messageBody(page.getByRole('log', { name: 'Transcript' }).getByRole('article').last())).toHaveText('Mock answer to: Back on track', { timeout: 20_000 });
	await expect(picker(page).locator('option:checked')).toHaveText(modelLabel('mock-model', 'Work server'));
	await phone.context().close();
});
