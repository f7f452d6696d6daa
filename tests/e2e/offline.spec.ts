// Offline use: once the service worker has cached the app shell, a reload with the network
// off still opens the app, chats with the built-in model and opens stored sessions by URL.
import { expect, test, type BrowserContext, type Page } from './test-base';
import { assistantMessages, expectNetworkOff, openApp, sendMessage, sessionIdFromUrl, sessionLinks, messageBody, messageText, userMessages, waitForAnswer, waitForServiceWorkerControl } from './helpers';

// These tests are about the service worker (offline use, its cache): it runs here, unlike in the other specs.
test.use({ serviceWorkers: 'allow' });

async function goOffline(context: BrowserContext, page: Page): Promise<void> {
	await context.setOffline(true);
	await expectNetworkOff(page);
}

test('with the network off, a reload opens the app and the offline model answers', async ({ page, context }) => {
	await openApp(page);
	await waitForServiceWorkerControl(page);
	await goOffline(context, page);

	await page.reload();
	await expect(page.getByRole('textbox', { name: 'Message' })).toBeVisible();
	await expectNetworkOff(page);
	await expect(page.getByRole('combobox', { name: 'Model', exact: true })).toBeVisible();

	await sendMessage(page, 'Hello while offline');
	const answer = await waitForAnswer(page);
	await expect(messageBody(answer)).toContainText('Hello while offline');
	await expect(sessionLinks(page)).toHaveText(['Hello while offline']);
});

test('with the network off, reloading a /s/<id> deep link opens that session', async ({ page, context }) => {
	await openApp(page);
	await sendMessage(page, 'Remember the lighthouse');
	const answer = await waitForAnswer(page);
	const text = await messageText(answer);
	const id = sessionIdFromUrl(page);
	await waitForServiceWorkerControl(page);
	await goOffline(context, page);

	await page.reload();
	await expect(page).toHaveURL(new RegExp(`/s/${id}$`));
	await expect(messageBody(userMessages(page))).toHaveText(['Remember the lighthouse']);
	await expect(messageBody(assistantMessages(page))).toHaveText([text]);
	await expect(assistantMessages(page).first()).toHaveAttribute('data-status', 'complete');

	// And a fresh navigation (not just a reload) to the deep link works too.
	await page.goto('about:blank');
	await page.goto(`/s/${id}`);
	await expect(messageBody(userMessages(page))).toHaveText(['Remember the lighthouse']);
});

test('with the network off, an answer is shown as formatted Markdown, code blocks and all', async ({ page, context }) => {
	await openApp(page);
	await waitForServiceWorkerControl(page);
	await goOffline(context, page);

	// The Markdown renderer is not part of the first screen: it comes from the service worker's cache too.
	await page.reload();
	await sendMessage(page, 'Show me a code example');
	const answer = await waitForAnswer(page);
	await expect(answer.getByRole('button', { name: 'Copy code' })).toBeVisible();
	await expect(answer.getByRole('blockquote')).toContainText('Show me a code example');
});
