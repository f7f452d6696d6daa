// Model output is untrusted: hostile Markdown and HTML in an answer must run no script, load
// nothing until the user asks, and leave links unable to reach back into the app.
import { expect, test, type Page, type Request } from './test-base';
import { assistantMessages, messageBody, openApp, sendMessage, waitForAnswer } from './helpers';

// page.route and page.on('request') do not see requests a service worker handles; this file
// is about rendering, not offline use, so keep the worker out of the way.
test.use({ serviceWorkers: 'block' });

const IMAGE_HOST = 'images.example.test';
// 1×1 transparent PNG.
const TINY_PNG = Buffer.from(
	'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==',
	'base64'
);

// `echo:` makes the offline model answer with exactly this text.
const HOSTILE = [
	'echo: # Hostile answer',
	'',
	'<img src=x onerror="window.__pwned=1">',
	'',
	'<script>window.__pwned=2</script>',
	'',
	'Here is a [click](javascript:window.__pwned=3) link and a [safe link](https://example.test/docs).',
	'',
	'<iframe src="javascript:window.top.__pwned=4"></iframe>',
	'',
	`![cat](http://${IMAGE_HOST}/cat.png)`,
	'',
	'The end.'
].join('\n');

function recordRequests(page: Page): Request[] {
	const requests: Request[] = [];
	page.on('request', (request) => requests.push(request));
	return requests;
}

function pwned(page: Page): Promise<unknown> {
	return page.evaluate(() => (window as unknown as { __pwned?: unknown }).__pwned);
}

async function sendHostileAnswer(page: Page) {
	await openApp(page);
	await sendMessage(page, HOSTILE);
	const answer = await waitForAnswer(page);
	await expect(messageBody(answer)).toContainText('The end.');
	return answer;
}

test('hostile HTML and links in an answer run no script and fetch nothing', async ({ page }) => {
	const requests = recordRequests(page);
	const answer = await sendHostileAnswer(page);
	const body = messageBody(answer);

	// Raw HTML is shown as its source text, never parsed into elements.
	await expect(body).toContainText('<script>window.__pwned=2</script>');
	await expect(body).toContainText('<img src=x onerror="window.__pwned=1">');
	await expect(body.locator('script, iframe, img, object, embed')).toHaveCount(0);
	expect(await pwned(page)).toBeUndefined();

	// The javascript: link is defused: its text stays, but it is not a link and does nothing.
	await expect(body.getByRole('link', { name: 'click' })).toHaveCount(0);
	const url = page.url();
	await body.getByText('click', { exact: true }).click();
	expect(await pwned(page)).toBeUndefined();
	expect(page.url()).toBe(url);

	// Links that survive open in a new tab without opener or referrer.
	const safe = body.getByRole('link', { name: 'safe link' });
	await expect(safe).toHaveAttribute('href', 'https://example.test/docs');
	await expect(safe).toHaveAttribute('rel', /\bnoopener\b/);
	await expect(safe).toHaveAttribute('rel', /\bnoreferrer\b/);
	await expect(safe).toHaveAttribute('target', '_blank');
	for (const link of await body.getByRole('link').all()) {
		await expect(link).toHaveAttribute('rel', /(?=.*\bnoopener\b)(?=.*\bnoreferrer\b)/);
	}

	// Rendering again from storage is just as inert.
	await page.reload();
	await expect(messageBody(assistantMessages(page).last())).toContainText('The end.');
	await expect(messageBody(assistantMessages(page).last()).locator('script, iframe, img')).toHaveCount(0);
	expect(await pwned(page)).toBeUndefined();

	const leaked = requests.map((r) => r.url()).filter((u) => u.includes(IMAGE_HOST) || /\/x(?:$|\?)/.test(u));
	expect(leaked).toEqual([]);
});

test('a remote image is a placeholder that loads only when clicked', async ({ page }) => {
	const requests = recordRequests(page);
	let served = 0;
	await page.route(`http://${IMAGE_HOST}/**`, async (route) => {
		served++;
		await route.fulfill({ status: 200, contentType: 'image/png', body: TINY_PNG });
	});

	const answer = await sendHostileAnswer(page);
	const body = messageBody(answer);
	const placeholder = body.getByRole('button', { name: `Load image: cat (${IMAGE_HOST})` });
	await expect(placeholder).toBeVisible();
	await expect(body.getByRole('img')).toHaveCount(0);
	expect(requests.filter((r) => r.url().includes(IMAGE_HOST))).toEqual([]);
	expect(served).toBe(0);

	const imageRequest = page.waitForRequest((r) => r.url() === `http://${IMAGE_HOST}/cat.png`);
	await placeholder.click();
	const request = await imageRequest;
	// The image host is not told which page showed it.
	expect(request.headers()['referer']).toBeUndefined();

	const image = body.getByRole('img', { name: 'cat' });
	await expect(image).toHaveAttribute('src', `http://${IMAGE_HOST}/cat.png`);
	await expect.poll(() => image.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth)).toBe(1);
	await expect(placeholder).toHaveCount(0);
	expect(served).toBe(1);
	expect(await pwned(page)).toBeUndefined();
});

test('hostile math in an answer links nowhere, loads nothing, runs no script and stays within bounds', async ({ page }) => {
	const requests = recordRequests(page);
	await openApp(page);
	await sendMessage(
		page,
		[
			'echo: Math $\\href{javascript:window.__pwned=5}{click me}$ and $\\url{javascript:window.__pwned=6}$.',
			'',
			`Classes $\\htmlClass{evil}{x}$, styles $\\htmlStyle{background:url(http://${IMAGE_HOST}/s.png)}{y}$, colours $\\color{url(http://${IMAGE_HOST}/c.png)}{z}$.`,
			'',
			`An image $\\includegraphics{http://${IMAGE_HOST}/g.png}$ and a bad formula $\\frac{a$.`,
			'',
			'$$\\rule{100000em}{100000em}$$',
			'',
			'$\\def\\a{\\a\\a}\\a$',
			'',
			'The end.'
		].join('\n')
	);
	const answer = await waitForAnswer(page);
	const body = messageBody(answer);
	await expect(body).toContainText('The end.');
	await expect(body.locator('.katex').first()).toBeVisible();

	await expect(body.locator('a, img, image, script, iframe, object, embed, .evil, [id], [href], [src]')).toHaveCount(0);
	// Clicking what the formulas show follows nothing.
	const url = page.url();
	for (const formula of await body.locator('.math').all()) await formula.click();
	expect(page.url()).toBe(url);
	expect(await pwned(page)).toBeUndefined();
	// A bad formula shows as its source, marked as an error; the message goes on.
	await expect(body.locator('.katex-error', { hasText: '\\frac{a' })).toBeVisible();
	// No style reaches out: every one is plain lengths and colours.
	const styles = await body.locator('[style]').evaluateAll((nodes) => nodes.map((node) => node.getAttribute('style') ?? ''));
	expect(styles.filter((style) => /url\(/i.test(style))).toEqual([]);
	// A rule of 100,000 em is drawn no larger than the sizes allowed.
	const box = await body.locator('.math-block').first().boundingBox();
	expect(box?.height ?? 0).toBeLessThan(1000);
	const size = await page.evaluate(() => ({ width: document.documentElement.scrollWidth, viewport: innerWidth }));
	expect(size.width).toBeLessThanOrEqual(size.viewport);
	expect(requests.map((r) => r.url()).filter((u) => u.includes(IMAGE_HOST))).toEqual([]);
});
