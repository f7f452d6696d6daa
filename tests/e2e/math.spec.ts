// Math in answers: drawn with KaTeX (HTML for the eye, MathML for screen readers), loaded only
// once an answer holds math, and never taken from prose dollars or code.
import { expect, test, type BrowserContext, type Page, type Request } from './test-base';
import { assistantMessages, expectNetworkOff, messageBody, openApp, sendAndWait, sendMessage, waitForAnswer, waitForServiceWorkerControl } from './helpers';

// These tests are about the service worker (offline use, its cache): it runs here, unlike in the other specs.
test.use({ serviceWorkers: 'allow' });

// `echo:` makes the offline model answer with exactly this text.
const MATH_ANSWER = [
	'echo: Energy is $E=mc^2$, by a famous formula.',
	'',
	'$$',
	'\\sum_{i=1}^{n} i = \\frac{n(n+1)}{2}',
	'$$',
	'',
	'It costs $5 and $6 today.',
	'',
	'In the shell, `echo $HOME$x` prints it, and:',
	'',
	'```sh',
	'price=$5; echo "$$ $price$"',
	'```'
].join('\n');

/** Whether a script of KaTeX's (its parser's error message is unique to it) reached the page. */
function watchForKatex(page: Page): () => boolean {
	let seen = false;
	page.on('response', async (response) => {
		if (response.request().resourceType() !== 'script') return;
		const body = await response.text().catch(() => '');
		if (body.includes('KaTeX parse error')) seen = true;
	});
	return () => seen;
}

/** The page's requests still waiting for their answer. */
function watchRequests(page: Page): Set<Request> {
	const waiting = new Set<Request>();
	page.on('request', (request) => waiting.add(request));
	page.on('requestfinished', (request) => waiting.delete(request));
	page.on('requestfailed', (request) => waiting.delete(request));
	return waiting;
}

/** Waits until the page's idle-time work has had its turn and every request it made is answered. */
async function settle(page: Page, inFlight: Set<Request>): Promise<void> {
	await page.evaluate(() => new Promise<void>((resolve) => requestIdleCallback(() => resolve())));
	await expect.poll(() => inFlight.size).toBe(0);
}

test.describe('with the service worker out of the way', () => {
	// page.on('response') does not see what a service worker answers from its cache.
	test.use({ serviceWorkers: 'block' });

	test('an answer with math shows it drawn by KaTeX, while prose dollars and code stay as written', async ({ page }) => {
		await openApp(page);
		const answer = await sendAndWait(page, MATH_ANSWER);
		const body = messageBody(answer);

		await expect(body.locator('.katex')).toHaveCount(2);
		await expect(body.locator('.katex-display')).toHaveCount(1);
		// MathML for assistive technology, with the formula's source kept as its annotation.
		await expect(body.locator('math')).toHaveCount(2);
		await expect(body.locator('math annotation')).toHaveText(['E=mc^2', '\\sum_{i=1}^{n} i = \\frac{n(n+1)}{2}']);
		await expect(body.locator('.katex-error')).toHaveCount(0);
		// The source is not shown as text: what a reader sees is the drawing.
		await expect(body).toContainText('Energy is', { useInnerText: true });
		await expect(body).not.toContainText('$E=mc^2$', { useInnerText: true });
		await expect(body).not.toContainText('\\frac', { useInnerText: true });

		// Prices stay prose; code stays code.
		const prices = body.getByText('It costs $5 and $6 today.');
		await expect(prices).toBeVisible();
		await expect(prices.locator('.katex')).toHaveCount(0);
		await expect(body.locator('code', { hasText: 'echo $HOME$x' })).toBeVisible();
		await expect(body.locator('pre code')).toHaveText('price=$5; echo "$$ $price$"');
		await expect(body.locator('code .katex, pre .katex')).toHaveCount(0);

		// KaTeX's fonts come from the app itself.
		await expect.poll(() => page.evaluate(() => document.fonts.check('16px KaTeX_Main'))).toBe(true);
		await expect
			.poll(() => page.evaluate(() => [...document.fonts].some((font) => font.family.includes('KaTeX_Main') && font.status === 'loaded')))
			.toBe(true);

		// Drawn again from storage, just the same.
		await page.reload();
		await expect(messageBody(assistantMessages(page).last()).locator('.katex')).toHaveCount(2);
	});

	test('KaTeX loads only for an answer that holds math', async ({ page }) => {
		const katexLoaded = watchForKatex(page);
		const inFlight = watchRequests(page);
		await openApp(page);
		const answer = await sendAndWait(page, 'echo: It costs $5 and $6, and `$x$` is a shell variable.\n\n```\n$$y$$\n```');
		await expect(answer.locator('.markdown:not(.plain)')).toContainText('It costs $5 and $6');
		await expect(answer.getByRole('button', { name: 'Copy code' })).toBeVisible();
		// The page has settled (idle-time preloads included) and still has no KaTeX.
		await settle(page, inFlight);
		expect(katexLoaded()).toBe(false);
		await expect(page.locator('link[rel="stylesheet"][href*="render-tex"]')).toHaveCount(0);

		const withMath = await sendAndWait(page, 'echo: Now $a^2 + b^2 = c^2$.');
		await expect(messageBody(withMath).locator('.katex')).toHaveCount(1);
		// Known once the script's body has been read (page.on('response') hands it over later).
		await expect.poll(katexLoaded).toBe(true);
	});

	test('a streaming formula is drawn once its closing delimiter arrives, never as an error meanwhile', async ({ page }) => {
		await openApp(page);
		// Any KaTeX error shown at any moment of the stream is recorded.
		await page.evaluate(() => {
			const seen: string[] = [];
			(window as unknown as { __mathErrors: string[] }).__mathErrors = seen;
			new MutationObserver(() => {
				for (const error of document.querySelectorAll('.katex-error')) seen.push(error.textContent ?? '');
			}).observe(document.body, { childList: true, subtree: true, characterData: true });
		});
		const words = Array.from({ length: 30 }, (_, i) => `word${i}`).join(' ');
		await sendMessage(page, `echo: Before the formula ${words} $\\frac{a + b}{c + d} + \\sqrt{x + y}$ and after it ${words}.`);
		const answer = assistantMessages(page).last();
		// While it streams, the half-typed formula is text.
		await expect(answer).toHaveAttribute('data-status', 'streaming');
		await waitForAnswer(page);
		await expect(messageBody(answer).locator('.katex')).toHaveCount(1);
		await expect(messageBody(answer).locator('math annotation')).toHaveText('\\frac{a + b}{c + d} + \\sqrt{x + y}');
		expect(await page.evaluate(() => (window as unknown as { __mathErrors: string[] }).__mathErrors)).toEqual([]);
	});

	test('copying an answer, by its Copy button or by selecting it, gives the math as written', async ({ page, context }) => {
		await context.grantPermissions(['clipboard-read', 'clipboard-write']);
		await openApp(page);
		const answer = await sendAndWait(page, 'echo: Energy is $E=mc^2$ here.\n\nAnd \\(a^2\\) and\n\n$$\nx^2\n$$');
		await expect(messageBody(answer).locator('.katex')).toHaveCount(3);

		await answer.getByRole('button', { name: 'Copy' }).click();
		await expect.poll(() => page.evaluate(() => navigator.clipboard.readText())).toBe('Energy is $E=mc^2$ here.\n\nAnd \\(a^2\\) and\n\n$$\nx^2\n$$');

		// Select the whole answer, then only part of the first formula: either way the TeX comes back whole.
		await messageBody(answer).evaluate((body) => document.getSelection()?.selectAllChildren(body));
		await page.keyboard.press('Control+C');
		await expect.poll(async () => (await page.evaluate(() => navigator.clipboard.readText())).replace(/\n+/g, '\n')).toBe('Energy is $E=mc^2$ here.\nAnd \\(a^2\\) and\n$$x^2$$');

		await messageBody(answer).evaluate((body) => {
			const glyph = body.querySelector('.katex-html .mord');
			if (glyph) document.getSelection()?.selectAllChildren(glyph);
		});
		await page.keyboard.press('Control+C');
		await expect.poll(() => page.evaluate(() => navigator.clipboard.readText())).toBe('$E=mc^2$');
	});
});

async function goOffline(context: BrowserContext, page: Page): Promise<void> {
	await context.setOffline(true);
	await expectNetworkOff(page);
}

test('with the network off, math is still drawn, with its fonts, from the service worker cache', async ({ page, context }) => {
	await openApp(page);
	await waitForServiceWorkerControl(page);
	await goOffline(context, page);

	await page.reload();
	const answer = await sendAndWait(page, 'echo: Offline, $\\int_0^1 x\\,dx = \\tfrac{1}{2}$ still renders.');
	await expect(messageBody(answer).locator('.katex')).toHaveCount(1);
	await expect(messageBody(answer).locator('math')).toHaveCount(1);
	await expect
		.poll(() => page.evaluate(() => [...document.fonts].some((font) => font.family.includes('KaTeX_Main') && font.status === 'loaded')))
		.toBe(true);
	expect(await page.evaluate(() => [...document.fonts].filter((font) => font.family.includes('KaTeX') && font.status === 'error').length)).toBe(0);
});
