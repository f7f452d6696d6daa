// The Model picker offers each provider's own models (GET {base}/models), and the model typed
// in Settings when the provider cannot list them.
import { expect, test } from './test-base';
import { openApp, sendAndWait } from './helpers';
import { addProvider, chooseModel, modelLabel } from './provider-helpers';
import { useMockProvider } from './test-servers';

const mock = useMockProvider({ reset: false });

test("the Model picker lists the provider's models, and keeps the typed one when the provider cannot list them", async ({ page }) => {
	await openApp(page);
	const typed = await addProvider(page, 'Custom (OpenAI-compatible)', `${mock.url}/v1`, 'typed-model');
	// Nothing listens on port 9: this provider cannot list its models.
	const unreachable = await addProvider(page, 'Ollama', 'http://127.0.0.1:9/v1', 'llama-typed');
	await chooseModel(page, modelLabel('mock-large', `Custom (OpenAI-compatible) · ${new URL(mock.url).host}`));
	const picker = page.getByRole('combobox', { name: 'Model', exact: true });
	await expect(picker.getByRole('option', { name: typed })).toHaveCount(1);
	await expect(picker.getByRole('option', { name: unreachable })).toHaveCount(1);

	await sendAndWait(page, 'Which model are you?');
	expect(mock.requests.filter((r) => r.path === '/v1/chat/completions').at(-1)!.body.model).toBe('mock-large');
	await page.reload();
	await expect(picker).toHaveValue(/mock-large$/);
});
