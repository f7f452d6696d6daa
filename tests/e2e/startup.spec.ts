// The agent loop and the provider adapters are not part of the page's first load: they load on
// first use, or in idle time. A message sent before they arrive waits for them; one sent when
// they cannot be loaded gives its text back with a clear error.
import { expect, test, type Page } from './test-base';
import { messageBody, openApp, userMessages, waitForAnswer } from './helpers';

// Requests go through the page (a service worker would answer from its cache instead).
test.use({ serviceWorkers: 'block' });

/** A sentence of the agent loop's code: it names the script that holds it, whatever its hash. */
const AGENT_LOOP_TEXT = 'There is no message to retry.';

/** Holds back (or fails) the script with the agent loop, and says when the page asked for it. */
async function routeAgentLoop(page: Page, answer: 'delay' | 'fail'): Promise<{ requested: Promise<void>; release: () => void }> {
	let requested!: () => void;
	let release!: () => void;
	const asked = new Promise<void>((resolve) => (requested = resolve));
	const released = new Promise<void>((resolve) => (release = resolve));
	await page.route('**/_app/immutable/**/*.js', async (route) => {
		// A connection the server closed as idle just then is tried again, as the browser would.
		const response = await route.fetch({ maxRetries: 2 });
		let body: string;
		try {
			body = await response.text();
		} catch {
			// The page gave up on this request (a reload or a superseded preload): nothing to hold back.
			return route.continue().catch(() => {});
		}
		if (!body.includes(AGENT_LOOP_TEXT)) return route.fulfill({ response, body });
		requested();
		if (answer === 'fail') return route.abort('connectionfailed');
		await released;
		return route.fulfill({ response, body });
	});
	return { requested: asked, release };
}

test('a message sent while the agent loop is still loading is kept and answered once it arrives', async ({ page }) => {
	const loop = await routeAgentLoop(page, 'delay');
	await openApp(page);
	const box = page.getByRole('textbox', { name: 'Message' });
	await box.fill('Sent at once');
	await box.press('Enter');
	await loop.requested;
	loop.release();
	await expect(messageBody(userMessages(page))).toHaveText(['Sent at once']);
	const answer = await waitForAnswer(page);
	await expect(messageBody(answer)).toContainText('Sent at once');
});

test('when the agent loop cannot be loaded, the message says so and its text stays in the Message box', async ({ page }) => {
	const loop = await routeAgentLoop(page, 'fail');
	await openApp(page);
	const box = page.getByRole('textbox', { name: 'Message' });
	await box.fill('Do not lose me');
	await box.press('Enter');
	await loop.requested;
	await expect(page.getByRole('alert')).toContainText('Part of the app could not be loaded');
	await expect(page.getByRole('alert')).toContainText('Reload the page');
	await expect(box).toHaveValue('Do not lose me');
	await expect(userMessages(page)).toHaveCount(0);
});
