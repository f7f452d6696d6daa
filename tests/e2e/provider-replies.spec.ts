// Provider answers that are not what was asked for, in the built app against the mock
// provider: a 200 that is not an event stream is read by its content type, and a stop reason
// that cuts the answer short is shown with its reason and Retry.
import { expect, test, type Page } from './test-base';
import { messageBody, sendMessage, waitForAnswer } from './helpers';
import { addCustomProvider } from './plugin-helpers';
import { useMockProvider } from './test-servers';

const mock = useMockProvider();

async function chatThroughMock(page: Page): Promise<void> {
	await page.goto('/settings');
	const label = await addCustomProvider(page, `${mock.url}/v1`, 'mock-model');
	await page.getByRole('link', { name: 'Chat' }).click();
	await page.getByRole('combobox', { name: 'Model', exact: true }).selectOption({ label });
}

test("a 200 JSON error body shows the provider's own message", async ({ page }) => {
	await chatThroughMock(page);
	mock.script([
		{
			type: 'reply',
			body: { error: { code: 400, message: 'the request exceeds the available context size, try increasing it', type: 'exceed_context_size_error' } }
		}
	]);
	await sendMessage(page, 'A very long question');
	const answer = await waitForAnswer(page, 'error');
	await expect(answer).toContainText('the request exceeds the available context size, try increasing it');
	await expect(answer).not.toContainText('TypeError');
	await expect(answer.getByRole('button', { name: 'Retry' })).toBeVisible();
});

test('a non-streamed JSON completion is shown as a finished answer', async ({ page }) => {
	await chatThroughMock(page);
	mock.script([
		{
			type: 'reply',
			body: {
				object: 'chat.completion',
				choices: [{ index: 0, message: { role: 'assistant', content: 'Answered **all at once**.' }, finish_reason: 'stop' }],
				usage: { prompt_tokens: 10, completion_tokens: 4 }
			}
		}
	]);
	await sendMessage(page, 'Through a proxy that buffers');
	const answer = await waitForAnswer(page, 'complete');
	await expect(messageBody(answer)).toHaveText('Answered all at once.');
	await expect(messageBody(answer).locator('strong')).toHaveText('all at once');
});

test('an unexpected frame is reported as such, keeping the text before it', async ({ page }) => {
	await chatThroughMock(page);
	mock.script([{ type: 'raw', text: 'data: {"choices":[{"delta":{"content":"Before"},"finish_reason":null}]}\n\ndata: null\n\n' }]);
	await sendMessage(page, 'Send something odd');
	const answer = await waitForAnswer(page, 'error');
	await expect(messageBody(answer)).toHaveText('Before');
	await expect(answer).toContainText('The provider sent an unexpected event: null');
});

test('an answer stopped by the content filter is incomplete, says why, and can be retried', async ({ page }) => {
	await chatThroughMock(page);
	mock.script([{ type: 'text', text: 'Here is the first part', finish: 'content_filter' }]);
	await sendMessage(page, 'Tell me a story');
	const cut = await waitForAnswer(page, 'incomplete');
	await expect(cut).toContainText("Incomplete: The provider's content filter stopped the answer.");
	await cut.getByRole('button', { name: 'Retry' }).click();
	const again = await waitForAnswer(page, 'complete');
	await expect(messageBody(again)).toHaveText('Mock answer to: Tell me a story');
});
