// A 390 × 844 touch screen: the chat takes the screen (a one-line header, or two for a model
// name too long to sit beside the title, which shows whole; the transcript; the Message box at
// the bottom), the sessions list slides in as a drawer (menu button, a swipe, Escape), every
// control is at least 44 × 44 px, and no page scrolls sideways.
import { expect, test, type Locator, type Page } from './test-base';
import { openApp, openSessionActions, sendAndWait, sessionLinks, sidebar, startSelecting, transcript } from './helpers';
import { addCustomProvider, addPlugin, navigate } from './plugin-helpers';
import { useMockProvider } from './test-servers';

const mock = useMockProvider();
const WIDTH = 390;
const HEIGHT = 844;
test.use({ viewport: { width: WIDTH, height: HEIGHT }, hasTouch: true, isMobile: true });

/** Visible controls smaller than 44 × 44 px (a box's target is its label), described. */
function smallTargets(page: Page): Promise<string[]> {
	return page.evaluate(() => {
		const controls = document.querySelectorAll<HTMLElement>('button, a[href], select, input, textarea, summary, [role="menuitem"], [role="menuitemcheckbox"]');
		return [...controls].flatMap((control) => {
			// Links inside running text are exempt, as in WCAG's target size rule.
			if (control.closest('p, li.empty, dd') && control.tagName === 'A') return [];
			const target = control.closest('label') ?? control;
			const box = target.getBoundingClientRect();
			const style = getComputedStyle(control);
			const hidden = box.width === 0 || box.height === 0 || style.visibility === 'hidden' || control.closest('[inert]') !== null;
			const onScreen = box.bottom > 0 && box.top < innerHeight && box.right > 0 && box.left < innerWidth;
			if (hidden || !onScreen || (box.width >= 43.5 && box.height >= 43.5)) return [];
			const name = control.getAttribute('aria-label') ?? control.textContent?.trim().slice(0, 30) ?? '';
			return [`${control.tagName.toLowerCase()} "${name}" ${Math.round(box.width)}×${Math.round(box.height)}`];
		});
	});
}

/** How far the page scrolls sideways (0 when it fits the screen). */
function sidewaysScroll(page: Page): Promise<number> {
	return page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
}

/** A one-finger swipe across the screen, as the touchscreen sends it. */
async function swipe(page: Page, from: { x: number; y: number }, to: { x: number; y: number }): Promise<void> {
	const cdp = await page.context().newCDPSession(page);
	const point = (p: { x: number; y: number }) => [{ x: p.x, y: p.y, id: 1 }];
	await cdp.send('Input.dispatchTouchEvent', { type: 'touchStart', touchPoints: point(from) });
	for (let step = 1; step <= 5; step++) {
		const at = { x: from.x + ((to.x - from.x) * step) / 5, y: from.y + ((to.y - from.y) * step) / 5 };
		await cdp.send('Input.dispatchTouchEvent', { type: 'touchMove', touchPoints: point(at) });
	}
	await cdp.send('Input.dispatchTouchEvent', { type: 'touchEnd', touchPoints: [] });
	await cdp.detach();
}

test('the chat takes the screen: one-line header, transcript over 60% of the height, Message box at the bottom, 44 px targets, no key hints', async ({ page }) => {
	await openApp(page);
	const box = page.getByRole('textbox', { name: 'Message' });
	await expect(box).toHaveAttribute('placeholder', /.+/);
	await expect(box).not.toHaveAttribute('placeholder', /Enter|Shift|Escape/);
	// The first-run card with its example prompts fits too.
	await expect(transcript(page).getByRole('region', { name: 'Start a conversation' })).toBeVisible();
	await expect.poll(() => smallTargets(page)).toEqual([]);
	await expect.poll(() => sidewaysScroll(page)).toBe(0);
	await sendAndWait(page, 'Hello there');

	// The sessions list is out of the way until asked for.
	await expect(sidebar(page)).toBeHidden();
	await expect.poll(async () => (await page.locator('header').first().boundingBox())?.height).toBeLessThanOrEqual(56);
	await expect(page.locator('header').first().getByRole('heading', { level: 1 })).toHaveText('Hello there');
	await expect.poll(async () => (await transcript(page).boundingBox())?.height).toBeGreaterThanOrEqual(0.6 * HEIGHT);
	const bottom = async () => {
		const message = (await box.boundingBox())!;
		return message.y + message.height;
	};
	await expect.poll(bottom).toBeGreaterThan(HEIGHT - 60);
	await expect.poll(bottom).toBeLessThanOrEqual(HEIGHT);

	await expect.poll(() => smallTargets(page)).toEqual([]);
	await expect.poll(() => sidewaysScroll(page)).toBe(0);
});

test("the header shows the model's own name whole, however long, beside Chat settings and the meter", async ({ page }) => {
	const LONG = 'accounts/fireworks/models/llama-v3p1-405b-instruct-long-context-preview';
	await openApp(page);
	await page.getByRole('button', { name: 'Menu' }).click();
	await addCustomProvider(page, `${mock.url}/v1`, LONG);
	await page.getByRole('button', { name: 'Menu' }).click();
	await navigate(page, 'Chat');
	const header = page.locator('header').first();
	const name = header.getByText(LONG, { exact: true });
	await expect(name).toBeVisible();
	await expect(name).toHaveText(LONG);
	// Whole: on the screen, nothing of it cut or scrolled away.
	await expect(name).toBeInViewport({ ratio: 1 });
	await expect.poll(() => name.evaluate((element) => element.scrollWidth - element.clientWidth)).toBe(0);
	await expect(header.getByRole('button', { name: 'Chat settings' })).toBeInViewport({ ratio: 1 });
	await expect(header.getByRole('status', { name: 'Context usage' })).toBeInViewport({ ratio: 1 });
	await expect.poll(() => sidewaysScroll(page)).toBe(0);
	await expect.poll(() => smallTargets(page)).toEqual([]);

	// It is still the Model picker: another choice shows its name there.
	await header.getByRole('combobox', { name: 'Model', exact: true }).selectOption({ label: 'offline-mini · Offline model (built-in)' });
	await expect(header.getByText('offline-mini', { exact: true })).toBeVisible();
	await expect(name).toHaveCount(0);
});

test('an example prompt on the empty chat is sent with one tap, without bringing up the keyboard', async ({ page }) => {
	await openApp(page);
	await transcript(page).getByRole('group', { name: 'Example prompts' }).getByRole('button', { name: 'Explain how tides work' }).tap();
	await expect(transcript(page).getByRole('article', { name: 'You' })).toHaveText(/Explain how tides work/);
	await expect(transcript(page).getByRole('article', { name: 'Assistant' })).toHaveAttribute('data-status', 'complete');
	await expect(page.getByRole('textbox', { name: 'Message' })).not.toBeFocused();
});

test('the sessions drawer opens with the menu button or a swipe from the edge, and closes with Escape, a swipe or a choice', async ({ page }) => {
	await openApp(page);
	await sendAndWait(page, 'echo: first session');
	const menu = page.getByRole('button', { name: 'Menu' });
	await expect(menu).toHaveAttribute('aria-expanded', 'false');
	await menu.click();
	await expect(sidebar(page)).toBeVisible();
	await expect(menu).toHaveAttribute('aria-expanded', 'true');
	// Focus goes into the drawer; the chat behind it cannot be reached meanwhile.
	await expect(sidebar(page).getByRole('link', { name: 'echo: first session' })).toBeFocused();
	await expect(page.locator('main')).toHaveAttribute('inert', '');
	// Measured once it has slid in.
	await expect.poll(async () => (await sidebar(page).boundingBox())?.x).toBe(0);
	await expect.poll(() => sidewaysScroll(page)).toBe(0);
	await expect.poll(() => smallTargets(page)).toEqual([]);
	// Selection mode's boxes and a row's Session actions menu are as easy to tap.
	await startSelecting(page);
	await expect(sidebar(page).getByRole('checkbox', { name: 'Select' })).toHaveCount(1);
	await expect.poll(() => smallTargets(page)).toEqual([]);
	await sidebar(page).getByRole('button', { name: 'Select', exact: true }).click();
	const actions = await openSessionActions(page, sidebar(page).getByRole('listitem').first());
	await expect.poll(() => smallTargets(page)).toEqual([]);
	await page.keyboard.press('Escape');
	await expect(actions).toBeHidden();
	// Escape closed the menu, not the drawer.
	await expect(sidebar(page)).toBeVisible();

	await page.keyboard.press('Escape');
	await expect(sidebar(page)).toBeHidden();
	await expect(menu).toBeFocused();

	await swipe(page, { x: 5, y: 400 }, { x: 250, y: 410 });
	await expect(sidebar(page)).toBeVisible();
	await swipe(page, { x: 250, y: 400 }, { x: 20, y: 405 });
	await expect(sidebar(page)).toBeHidden();

	// Choosing New session or a session puts the drawer away.
	await menu.click();
	await sidebar(page).getByRole('button', { name: 'New session' }).click();
	await expect(sidebar(page)).toBeHidden();
	await sendAndWait(page, 'echo: second session');
	await menu.click();
	await sessionLinks(page).filter({ hasText: 'echo: first session' }).click();
	await expect(sidebar(page)).toBeHidden();
	await expect(transcript(page)).toContainText('first session');
	await expect(page.locator('header').first().getByRole('heading', { level: 1 })).toHaveText('echo: first session');
});

/** Words of up to 30 characters inside `root` that the layout broke across lines ("word@top,top"). */
function brokenWords(root: Locator): Promise<string[]> {
	return root.evaluate((node) => {
		const broken: string[] = [];
		const walker = document.createTreeWalker(node, NodeFilter.SHOW_TEXT);
		for (let text = walker.nextNode(); text; text = walker.nextNode()) {
			for (const match of (text.textContent ?? '').matchAll(/\S{2,30}/g)) {
				const range = document.createRange();
				range.setStart(text, match.index);
				range.setEnd(text, match.index + match[0].length);
				const tops = new Set([...range.getClientRects()].filter((r) => r.width > 0).map((r) => Math.round(r.top)));
				if (tops.size > 1) broken.push(`${match[0]}@${[...tops].join(',')}`);
			}
		}
		return broken;
	});
}

test('the hook log keeps its words whole: each call shows its hook, time, plugin, outcome and result', async ({ page }) => {
	await openApp(page);
	await sendAndWait(page, 'echo: words for the hook log');
	await page.getByRole('button', { name: 'Menu' }).click();
	await navigate(page, 'Plugins');
	await addPlugin(page, '/plugins/whoami.js', 'whoami');
	const log = page.getByRole('region', { name: 'Hook log' });
	const started = log.getByRole('row').filter({ has: page.getByRole('cell', { name: 'on_session_start', exact: true }) });
	await expect(started).toBeVisible();
	await expect(started.getByRole('cell', { name: 'no plugin listens', exact: true })).toBeVisible();
	await expect(started.getByRole('button', { name: 'Details' })).toBeVisible();
	await expect.poll(() => brokenWords(log)).toEqual([]);
	await expect.poll(() => sidewaysScroll(page)).toBe(0);
});

test('no page scrolls sideways: Settings, Plugins with its hook log, Archived', async ({ page }) => {
	await openApp(page);
	await sendAndWait(page, 'echo: something for the hook log');
	await page.getByRole('button', { name: 'Menu' }).click();
	await navigate(page, 'Plugins');
	await addPlugin(page, '/plugins/whoami.js', 'whoami');
	await expect(page.getByRole('region', { name: 'Hook log' }).getByRole('row').nth(1)).toBeVisible();
	await expect.poll(() => sidewaysScroll(page)).toBe(0);
	await expect.poll(() => smallTargets(page)).toEqual([]);

	for (const link of ['Settings', 'Archived'] as const) {
		await page.getByRole('button', { name: 'Menu' }).click();
		await sidebar(page).getByRole('link', { name: link, exact: true }).click();
		await expect(page.getByRole('heading', { level: 1, name: link })).toBeVisible();
		await expect.poll(() => sidewaysScroll(page)).toBe(0);
		await expect.poll(() => smallTargets(page)).toEqual([]);
	}
});
