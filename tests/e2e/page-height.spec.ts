// Every page fits the screen: the chat, Settings and Plugins scroll inside their own area, and
// the document itself is never taller than the screen, so no swipe or scroll wheel carries a
// reader past the content into a blank screen (on a desktop and on a phone).
import { expect, test, type Page } from './test-base';
import { openApp, sendAndWait, sessionIdFromUrl, transcript } from './helpers';
import { addPlugin } from './plugin-helpers';

const SCREENS = [
	{ name: 'desktop', use: { viewport: { width: 1366, height: 850 } } },
	{ name: 'phone', use: { viewport: { width: 390, height: 844 }, hasTouch: true, isMobile: true } }
];

/** How far the document scrolls past the screen, and what is placed against the body down there. */
function overflowBelow(page: Page): Promise<{ pixels: number; reaching: string[] }> {
	return page.evaluate(() => {
		const root = document.scrollingElement ?? document.documentElement;
		const reaching = [...document.querySelectorAll<HTMLElement>('body *')]
			.filter((element) => element.getBoundingClientRect().bottom > innerHeight + 1 && getComputedStyle(element).position === 'absolute' && element.offsetParent === document.body)
			.map((element) => `${element.tagName.toLowerCase()}.${element.className} at ${Math.round(element.getBoundingClientRect().bottom)} px`);
		return { pixels: root.scrollHeight - root.clientHeight, reaching };
	});
}

for (const screen of SCREENS) {
	test.describe(`on a ${screen.name}`, () => {
		test.use(screen.use);

		test('Chat, Settings and Plugins are no taller than the screen', async ({ page }) => {
			await openApp(page);
			await sendAndWait(page, 'echo: something for the hook log');
			const session = sessionIdFromUrl(page);
			await page.goto('/plugins');
			await addPlugin(page, '/plugins/whoami.js', 'whoami');
			const pages = [
				{ path: `/s/${session}`, ready: transcript(page).getByRole('article', { name: 'Assistant' }) },
				{ path: '/settings', ready: page.getByRole('button', { name: 'Import', exact: true }) },
				{ path: '/plugins', ready: page.getByRole('region', { name: 'Hook log' }).getByRole('row').nth(1) }
			];
			for (const { path, ready } of pages) {
				await page.goto(path);
				await expect(ready).toBeVisible();
				await expect.poll(() => overflowBelow(page), { message: `how far ${path} scrolls past its content` }).toEqual({ pixels: 0, reaching: [] });
			}
		});
	});
}
