// Settings in a real browser: a provider added through the form is used for chat with its key
// sent only to it; the theme and the default model persist.
import { expect, test, type Page } from './test-base';
import { addCustomProvider } from './plugin-helpers';
import { sendMessage, waitForAnswer, messageBody, newSession } from './helpers';
import { useMockProvider } from './test-servers';
import { OFFLINE_LABEL } from './provider-helpers';

const mock = useMockProvider();

async function openSettings(page: Page): Promise<void> {
	await page.goto('/settings');
	await expect(page.getByRole('heading', { name: 'Settings', level: 1 })).toBeVisible();
}

test('add a provider with a key, test the connection, and chat through it', async ({ page }) => {
	await openSettings(page);
	await page.getByRole('button', { name: 'Add provider' }).click();
	await page.getByRole('combobox', { name: 'Preset' }).selectOption({ label: 'OpenAI' });
	// A preset fills its base URL (under More options) and needs a key.
	await page.getByRole('dialog', { name: 'Add provider' }).getByRole('button', { name: 'More options' }).click();
	await expect(page.getByRole('textbox', { name: 'Base URL' })).toHaveValue('https://api.openai.com/v1');
	await page.getByRole('textbox', { name: 'Base URL' }).fill(`${mock.url}/v1`);
	await page.getByRole('textbox', { name: 'Model', exact: true }).fill('mock-model');
	await page.getByRole('button', { name: 'Save' }).click();
	await expect(page.getByRole('status', { name: 'Provider status' })).toContainText('needs an API key');

	await page.getByRole('textbox', { name: 'API key' }).fill('sk-test-123');
	await page.getByRole('button', { name: 'Test connection' }).click();
	await expect(page.getByRole('status', { name: 'Provider status' })).toContainText('mock-large');
	await page.getByRole('button', { name: 'Save' }).click();
	await expect(page.getByRole('status', { name: 'Provider status' })).toContainText('Saved OpenAI · mock-model');

	await page.getByRole('link', { name: 'Chat' }).click();
	await page.getByRole('combobox', { name: 'Model', exact: true }).selectOption({ label: `mock-model · OpenAI · ${new URL(mock.url).host}` });
	await sendMessage(page, 'Hello provider');
	const answer = await waitForAnswer(page);
	await expect(messageBody(answer)).toHaveText('Mock answer to: Hello provider');
	// The OpenAI preset speaks the Responses API.
	const chat = mock.requests.filter((r) => r.path.endsWith('/responses'));
	expect(chat).toHaveLength(1);
	expect(chat[0].headers.authorization).toBe('Bearer sk-test-123');
	// The "Offline" badge only shows for the built-in model.
	await expect(page.getByText('Offline', { exact: true })).toHaveCount(0);
});

test('a provider error is shown on the answer, and Retry works once it recovers', async ({ page }) => {
	await openSettings(page);
	const label = await addCustomProvider(page, `${mock.url}/v1`, 'mock-model');
	await page.getByRole('link', { name: 'Chat' }).click();
	await page.getByRole('combobox', { name: 'Model', exact: true }).selectOption({ label });

	mock.script([{ type: 'http_error', status: 400, body: { error: { message: 'This model does not exist', type: 'invalid_request_error' } } }]);
	await sendMessage(page, 'Will this fail?');
	const failed = await waitForAnswer(page, 'error');
	await expect(failed).toContainText('This model does not exist');
	await failed.getByRole('button', { name: 'Retry' }).click();
	const answer = await waitForAnswer(page, 'complete');
	await expect(messageBody(answer)).toHaveText('Mock answer to: Will this fail?');
});

test('the theme and the default model persist across a reload', async ({ page }) => {
	await openSettings(page);
	await page.getByRole('radio', { name: 'Dark' }).check();
	await expect(page.locator('html')).toHaveAttribute('data-theme', 'dark');
	await expect(page.getByRole('status', { name: 'Save status' })).toHaveText('Saved');
	await page.reload();
	await expect(page.getByRole('radio', { name: 'Dark' })).toBeChecked();
	await expect(page.locator('html')).toHaveAttribute('data-theme', 'dark');
	await page.getByRole('radio', { name: 'System' }).check();
	await expect(page.locator('html')).not.toHaveAttribute('data-theme', /.+/);

	await page.getByRole('button', { name: 'Add provider' }).click();
	await page.getByRole('combobox', { name: 'Preset' }).selectOption({ label: 'Ollama' });
	await page.getByRole('textbox', { name: 'Model', exact: true }).fill('llama3.2');
	await page.getByRole('button', { name: 'Save' }).click();
	await page.getByRole('combobox', { name: 'Default model' }).selectOption({ label: 'llama3.2 · Ollama · localhost:11434' });
	await expect(page.getByRole('status', { name: 'Save status' })).toHaveText('Saved');
	await page.reload();
	await expect(page.getByRole('combobox', { name: 'Default model' })).toHaveValue(/llama3\.2/);
	await newSession(page);
	await expect(page.getByRole('combobox', { name: 'Model', exact: true })).toHaveValue(/llama3\.2/);
});

test('a session whose provider was removed says so, and another model can be chosen', async ({ page }) => {
	await openSettings(page);
	const label = await addCustomProvider(page, `${mock.url}/v1`, 'mock-model');
	await page.getByRole('link', { name: 'Chat' }).click();
	await page.getByRole('combobox', { name: 'Model', exact: true }).selectOption({ label });
	await sendMessage(page, 'Through the mock');
	await waitForAnswer(page);

	await page.getByRole('link', { name: 'Settings' }).click();
	await page.getByRole('button', { name: 'Remove Custom (OpenAI-compatible) mock-model' }).click();
	const confirm = page.getByRole('dialog', { name: 'Remove this provider?' });
	await expect(confirm).toContainText('its API key are deleted');
	await confirm.getByRole('button', { name: 'Remove' }).click();
	await expect(page.getByRole('button', { name: 'Remove Custom (OpenAI-compatible) mock-model' })).toHaveCount(0);
	await page.getByRole('link', { name: 'Chat' }).click();
	const picker = page.getByRole('combobox', { name: 'Model', exact: true });
	await expect(picker.locator('option:checked')).toHaveText(`${label} (not set up here)`);
	await picker.selectOption({ label: OFFLINE_LABEL });
	await sendMessage(page, 'echo: back offline');
	await expect(messageBody(await waitForAnswer(page))).toHaveText('back offline');
});

test('a message sent while another model is still being put in place goes to that model, on a slow machine too', async ({ page }) => {
	// A loaded machine, played slow: a session lock is granted 400 ms late and the token counter
	// answers 500 ms late, so the check that follows a model change is still waiting for its lock
	// when the message goes.
	await page.addInitScript(() => {
		const locks = navigator.locks;
		const request = locks.request.bind(locks) as (...args: unknown[]) => Promise<unknown>;
		const seen = window as unknown as { workLockRequests: number };
		seen.workLockRequests = 0;
		Object.defineProperty(locks, 'request', {
			value: (name: string, ...rest: unknown[]) => {
				if (name.startsWith('palimpsest-work:')) seen.workLockRequests++;
				return new Promise((resolve) => setTimeout(resolve, 400)).then(() => request(name, ...rest));
			}
		});
		const post = Worker.prototype.postMessage as (this: Worker, ...args: unknown[]) => void;
		Worker.prototype.postMessage = function (this: Worker, ...args: unknown[]) {
			setTimeout(() => post.apply(this, args), 500);
		};
	});
	await openSettings(page);
	const label = await addCustomProvider(page, `${mock.url}/v1`, 'mock-model');
	await page.getByRole('link', { name: 'Chat' }).click();
	// The first provider saved is the default: this session starts on the offline model by choice.
	await page.getByRole('combobox', { name: 'Model', exact: true }).selectOption({ label: OFFLINE_LABEL });
	await sendMessage(page, 'echo: offline first');
	await waitForAnswer(page);

	const requests = () => page.evaluate(() => (window as unknown as { workLockRequests: number }).workLockRequests);
	const before = await requests();
	await page.getByRole('combobox', { name: 'Model', exact: true }).selectOption({ label });
	await expect.poll(requests).toBeGreaterThan(before);
	await sendMessage(page, 'Right after the switch');
	await expect(messageBody(await waitForAnswer(page))).toHaveText('Mock answer to: Right after the switch');
	await expect(page.getByRole('alert')).toHaveCount(0);
});

test('the system prompt is sent first in every request, and is never shown in the transcript', async ({ page }) => {
	await openSettings(page);
	const label = await addCustomProvider(page, `${mock.url}/v1`, 'mock-model');
	await page.getByRole('combobox', { name: 'Default model' }).selectOption({ label });
	const prompt = page.getByRole('textbox', { name: 'System prompt' });
	await prompt.fill('Answer like a pirate.');
	await prompt.blur();
	await expect(page.getByRole('status', { name: 'Save status' })).toHaveText('Saved');
	await page.reload();
	await expect(prompt).toHaveValue('Answer like a pirate.');

	await page.getByRole('link', { name: 'Chat' }).click();
	await newSession(page);
	await sendMessage(page, 'Ahoy?');
	await waitForAnswer(page, 'complete');
	const chat = mock.requests.filter((r) => r.path.endsWith('/chat/completions'));
	expect(chat).toHaveLength(1);
	const messages = (chat[0].body as { messages: { role: string; content: string }[] }).messages;
	expect(messages[0]).toEqual({ role: 'system', content: 'Answer like a pirate.' });
	expect(messages.at(-1)).toMatchObject({ role: 'user', content: 'Ahoy?' });
	await expect(page.getByRole('log', { name: 'Transcript' })).not.toContainText('pirate');
});

test('a number out of range is refused with a message at the field, and nothing else is saved in its place', async ({ page }) => {
	await openSettings(page);
	const threshold = page.getByRole('spinbutton', { name: 'Compact before a request above (% of the context window)' });
	await expect(threshold).toHaveAccessibleDescription('A whole number from 10 to 99.');
	// The saved value, once the page has read it.
	await expect(threshold).toHaveValue(/^\d+$/);
	const before = await threshold.inputValue();
	await threshold.fill('150');
	await threshold.press('Tab');
	await expect(page.getByRole('alert').filter({ hasText: '150 is more than 99' })).toHaveText('150 is more than 99, the most allowed; nothing was saved.');
	// What was typed stays to correct; nothing became 99.
	await expect(threshold).toHaveValue('150');
	await expect(threshold).toHaveAttribute('aria-invalid', 'true');

	const retention = page.getByRole('spinbutton', { name: 'Retention days' });
	await expect(retention).toHaveValue(/^\d+$/);
	const days = await retention.inputValue();
	await retention.fill('-5');
	await retention.press('Tab');
	await expect(page.getByRole('alert').filter({ hasText: '-5 is less than 0' })).toBeVisible();

	await page.reload();
	await expect(threshold).toHaveValue(before);
	await expect(retention).toHaveValue(days);

	await threshold.fill('85');
	await threshold.press('Tab');
	await expect(threshold).not.toHaveAttribute('aria-invalid');
	await page.reload();
	await expect(threshold).toHaveValue('85');
});
