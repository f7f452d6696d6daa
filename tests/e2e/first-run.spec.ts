// A new user's first screen: what the offline model is, prompts to try, and Connect a model,
// which finds Ollama or LM Studio on their default ports (or says which setting lets this page
// in), else opens the provider form. Providers can be edited, and one the browser cannot reach
// says what to check and offers the offline model.
import { createServer, type Server } from 'node:http';
import { expect, test, type Page } from './test-base';
import { startMockProvider, type MockProvider } from '../support/mock-provider.mjs';
import { assistantMessages, messageBody, newSession, openApp, sendMessage, transcript, userMessages, waitForAnswer } from './helpers';
import { addCustomProvider, navigate } from './plugin-helpers';
import { modelLabel, OFFLINE_LABEL } from './provider-helpers';

const OLLAMA_PORT = 11434;
const LM_STUDIO_PORT = 1234;

/** A server that answers, but without Access-Control-Allow-Origin: running, yet closed to the page. */
async function startClosedServer(port: number): Promise<Server> {
	const server = createServer((_req, res) => {
		res.writeHead(200, { 'content-type': 'application/json' });
		res.end('{"data":[{"id":"hidden-model"}]}');
	});
	await new Promise<void>((resolve, reject) => server.once('error', reject).listen(port, '127.0.0.1', () => resolve()));
	return server;
}

const card = (page: Page) => transcript(page).getByRole('region', { name: 'Start a conversation' });
const modelSearch = (page: Page) => page.getByRole('status', { name: 'Model search' });

test('the empty chat explains the offline model and offers prompts to try, each sent by a click', async ({ page }) => {
	await openApp(page);
	await expect(card(page)).toContainText('built-in offline model');
	await expect(card(page)).toContainText('needs no key and no network');
	// A click on an example sends it, as if typed and sent.
	await card(page).getByRole('group', { name: 'Example prompts' }).getByRole('button', { name: 'Explain how tides work' }).click();
	await expect(messageBody(userMessages(page))).toHaveText(['Explain how tides work']);
	await waitForAnswer(page);
	await expect(card(page)).toHaveCount(0);
	await expect(page).toHaveURL(/\/s\/[^/]+$/);
	const box = page.getByRole('textbox', { name: 'Message' });
	await expect(box).toHaveValue('');
	await expect(box).toBeFocused();
});

test('Connect a model finds Ollama with its models, says how to let LM Studio in, and chats through the model chosen', async ({ page }) => {
	let ollama: MockProvider | undefined;
	let lmStudio: Server | undefined;
	try {
		ollama = await startMockProvider({ port: OLLAMA_PORT });
		lmStudio = await startClosedServer(LM_STUDIO_PORT);
	} catch (error) {
		await ollama?.close();
		test.skip(true, `The default ports of Ollama and LM Studio are taken on this machine: ${error}`);
		return;
	}
	try {
		await openApp(page);
		await card(page).getByRole('button', { name: 'Connect a model' }).click();
		await expect(modelSearch(page)).toContainText('Found Ollama at http://localhost:11434/v1');
		const origin = new URL(page.url()).origin;
		await expect(modelSearch(page)).toContainText(`LM Studio is running on this computer but does not allow this page: turn on "Enable CORS"`);
		const models = page.getByRole('list', { name: 'Ollama models' });
		await expect(models.getByRole('button')).toHaveText(['Use mock-model', 'Use mock-large']);
		expect(origin).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);

		await models.getByRole('button', { name: 'Use mock-large' }).click();
		await expect(modelSearch(page)).toContainText('Connected: Ollama · mock-large');
		await expect(page.getByRole('combobox', { name: 'Model', exact: true })).toHaveValue(/mock-large$/);
		await expect(page.getByRole('textbox', { name: 'Message' })).toBeFocused();
		await sendMessage(page, 'Hello local model');
		await waitForAnswer(page);
		await expect(messageBody(assistantMessages(page))).toHaveText(['Mock answer to: Hello local model']);
		const chat = ollama.requests.filter((r) => r.path.endsWith('/chat/completions'));
		expect(chat.map((r) => r.body.model)).toEqual(['mock-large']);
	} finally {
		await ollama.close();
		await new Promise((resolve) => lmStudio!.close(resolve));
	}
});

test('with no model server on this computer, Connect a model opens the Add provider dialog, its first field focused', async ({ page }) => {
	await openApp(page);
	await card(page).getByRole('button', { name: 'Connect a model' }).click();
	await expect(page).toHaveURL(/\/settings\?add=provider/);
	const dialog = page.getByRole('dialog', { name: 'Add provider' });
	await expect(dialog.getByText('No Ollama or LM Studio answered on this computer')).toBeVisible();
	await expect(dialog.getByRole('combobox', { name: 'Preset' })).toBeFocused();
});

test('a provider saved from Connect a model answers in the empty chat and in new sessions, with the offline model still in Model', async ({ page }) => {
	const mock = await startMockProvider();
	try {
		await openApp(page);
		await card(page).getByRole('button', { name: 'Connect a model' }).click();
		await expect(page.getByRole('combobox', { name: 'Preset' })).toBeFocused();
		await page.getByRole('combobox', { name: 'Preset' }).selectOption({ label: 'Custom (OpenAI-compatible)' });
		await page.getByRole('textbox', { name: 'Base URL' }).fill(`${mock.url}/v1`);
		await page.getByRole('textbox', { name: 'Model', exact: true }).fill('mock-model');
		await page.getByRole('button', { name: 'Save' }).click();

		// Back in the empty chat, which now speaks of the model just connected.
		await expect(page).toHaveURL(/\/$/);
		const label = modelLabel('mock-model', `Custom (OpenAI-compatible) · ${new URL(mock.url).host}`);
		const picker = page.getByRole('combobox', { name: 'Model', exact: true });
		await expect(picker.locator('option:checked')).toHaveText(label);
		await expect(card(page)).toContainText(`You are talking to ${label}`);
		await expect(card(page)).not.toContainText('You are talking to the built-in offline model');
		await expect(picker.getByRole('option', { name: OFFLINE_LABEL })).toHaveCount(1);
		await expect(page.getByRole('textbox', { name: 'Message' })).toBeFocused();

		await sendMessage(page, 'hi');
		await expect(messageBody(await waitForAnswer(page))).toHaveText('Mock answer to: hi');
		await newSession(page);
		await expect(picker.locator('option:checked')).toHaveText(label);
		await sendMessage(page, 'and a new session?');
		await expect(messageBody(await waitForAnswer(page))).toHaveText('Mock answer to: and a new session?');
		const chat = mock.requests.filter((r) => r.path.endsWith('/chat/completions'));
		expect(chat.map((r) => r.body.model)).toEqual(['mock-model', 'mock-model']);

		await navigate(page, 'Settings');
		await expect(page.getByRole('combobox', { name: 'Default model' }).locator('option:checked')).toHaveText(label);
	} finally {
		await mock.close();
	}
});

test('the first provider saved in Settings becomes the default and the empty chat\'s model', async ({ page }) => {
	const mock = await startMockProvider();
	try {
		await openApp(page);
		const label = await addCustomProvider(page, `${mock.url}/v1`, 'mock-model');
		await expect(page.getByRole('combobox', { name: 'Default model' }).locator('option:checked')).toHaveText(label);
		await navigate(page, 'Chat');
		await expect(page.getByRole('combobox', { name: 'Model', exact: true }).locator('option:checked')).toHaveText(label);
		await expect(card(page)).toContainText(`You are talking to ${label}`);
		// A second one is only added: the first stays the default.
		const second = await addCustomProvider(page, `${mock.url}/v1`, 'mock-large');
		await expect(page.getByRole('combobox', { name: 'Default model' }).locator('option:checked')).toHaveText(label);
		await expect(page.getByRole('combobox', { name: 'Default model' }).getByRole('option', { name: second })).toHaveCount(1);
	} finally {
		await mock.close();
	}
});

test('a saved provider can be edited: model and address change, the key is kept unless a new one is typed', async ({ page }) => {
	const mock = await startMockProvider();
	try {
		await openApp(page);
		await addCustomProvider(page, `${mock.url}/v1`, 'mock-model', 'sk-kept');
		await page.getByRole('button', { name: 'Edit Custom (OpenAI-compatible) mock-model' }).click();
		await expect(page.getByRole('textbox', { name: 'Base URL' })).toHaveValue(`${mock.url}/v1`);
		const model = page.getByRole('textbox', { name: 'Model', exact: true });
		await expect(model).toHaveValue('mock-model');
		await expect(page.getByRole('textbox', { name: 'API key' })).toHaveValue('');
		await model.fill('mock-large');
		await page.getByRole('button', { name: 'Save' }).click();
		await expect(page.getByRole('status', { name: 'Provider status' })).toHaveText('Saved changes to Custom (OpenAI-compatible) · mock-large.');
		await expect(page.getByRole('button', { name: /^Edit / })).toHaveCount(1);

		await navigate(page, 'Chat');
		await page.getByRole('combobox', { name: 'Model', exact: true }).selectOption({ label: `mock-large · Custom (OpenAI-compatible) · ${new URL(mock.url).host}` });
		await sendMessage(page, 'Which model?');
		await waitForAnswer(page);
		const chat = mock.requests.filter((r) => r.path.endsWith('/chat/completions'));
		expect(chat.map((r) => r.body.model)).toEqual(['mock-large']);
		expect(chat[0].headers.authorization).toBe('Bearer sk-kept');
	} finally {
		await mock.close();
	}
});

test('"Failed to fetch" says what to check, and offers switching back to the offline model', async ({ page }) => {
	await openApp(page);
	// An Ollama provider on a port where nothing listens.
	await navigate(page, 'Settings');
	await page.getByRole('button', { name: 'Add provider' }).click();
	await page.getByRole('combobox', { name: 'Preset' }).selectOption({ label: 'Ollama' });
	await page.getByRole('textbox', { name: 'Base URL' }).fill('http://127.0.0.1:9/v1');
	await page.getByRole('button', { name: 'Test connection' }).click();
	const origin = new URL(page.url()).origin;
	await expect(page.getByRole('status', { name: 'Provider status' })).toContainText(new RegExp(`the network or the server may be down[^]*OLLAMA_ORIGINS=${origin}`));
	await page.getByRole('button', { name: 'Save' }).click();
	await navigate(page, 'Chat');
	await page.getByRole('combobox', { name: 'Model', exact: true }).selectOption({ label: 'llama3.2 · Ollama · 127.0.0.1:9' });
	await sendMessage(page, 'Anyone there?');
	const failed = await waitForAnswer(page, 'error');
	await expect(failed).toContainText('The browser could not reach Ollama at http://127.0.0.1:9/v1');
	// First what most often causes it (no network, the server down), then the setting that lets this page in.
	await expect(failed).toContainText(new RegExp(`the network or the server may be down[^]*Check that the server is running[^]*OLLAMA_ORIGINS=${origin}`));

	await failed.getByRole('button', { name: 'Use the offline model' }).click();
	await expect(page.getByRole('combobox', { name: 'Model', exact: true })).toHaveValue(/offline-mini$/);
	await failed.getByRole('button', { name: 'Retry' }).click();
	// The retry answers in the same message, with the offline model's tokenizer loading first.
	await waitForAnswer(page, 'complete', 30_000);
	await expect(assistantMessages(page).last()).toContainText('offline model');
});
