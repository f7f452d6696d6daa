// Shared steps for the browser tests: sending a message and waiting on the answer through
// the accessible names of DESIGN.md §10, so the tests read like what a user does.
import { expect, type Locator, type Page } from '@playwright/test';

// "N words" asks the offline model for an essay; 3000 words stream in ~400 chunks (~8 s).
export const LONG_PROMPT = 'Please write 3000 words about rivers';

export function transcript(page: Page): Locator {
	return page.getByRole('log', { name: 'Transcript' });
}

/**
 * Opens the tool-call row in `scope` (a row, or the message that holds one): its arguments and
 * result show. A row starts closed, with the tool, its status and, while it runs, its progress.
 */
export async function openToolCall(scope: Locator): Promise<void> {
	const toggle = scope.getByRole('group', { name: /^Tool call / }).getByRole('button').first();
	await expect(toggle).toHaveAttribute('aria-expanded', 'false');
	await toggle.click();
	await expect(toggle).toHaveAttribute('aria-expanded', 'true');
}

export function sidebar(page: Page): Locator {
	return page.getByRole('navigation', { name: 'Sessions' });
}

export function assistantMessages(page: Page): Locator {
	return transcript(page).getByRole('article', { name: 'Assistant' });
}

export function userMessages(page: Page): Locator {
	return transcript(page).getByRole('article', { name: 'You' });
}

/** The text of a message itself, without its "You"/"Assistant" label, status or buttons. */
export function messageBody(article: Locator): Locator {
	return article.locator(':scope > .plain, :scope > .markdown');
}

/** The raw textContent of a message body (whitespace and newlines kept). */
export async function messageText(article: Locator): Promise<string> {
	// Model text shows as written until the Markdown renderer has loaded (a moment after start-up).
	await expect(article.locator('.markdown.plain')).toHaveCount(0);
	const body = messageBody(article);
	return (await body.count()) === 0 ? '' : ((await body.textContent()) ?? '');
}

/**
 * Waits until `locator`'s text holds `pattern`, and returns the number its first group spells
 * ("12,345" reads 12345): for figures a test computes with, not just compares.
 */
export async function numberIn(locator: Locator, pattern: RegExp): Promise<number> {
	let value = Number.NaN;
	await expect
		.poll(
			async () => {
				const match = pattern.exec(await locator.innerText());
				value = match ? Number(match[1].replaceAll(',', '')) : Number.NaN;
				return value;
			},
			{ message: `a number matching ${pattern} is shown` }
		)
		.not.toBeNaN();
	return value;
}

/**
 * Watches `locator`'s element for `ms` and resolves to every text it took other than the one it
 * had: "nothing more arrives" can only be seen over a span of time, and a change undone within
 * it is caught too.
 */
export function textChangesWithin(locator: Locator, ms: number): Promise<string[]> {
	return locator.evaluate(
		(node, span) =>
			new Promise<string[]>((resolve) => {
				const first = node.textContent;
				const changes: string[] = [];
				const observer = new MutationObserver(() => {
					if (node.textContent !== first) changes.push(node.textContent ?? '');
				});
				observer.observe(node, { subtree: true, childList: true, characterData: true });
				setTimeout(() => {
					observer.disconnect();
					resolve(changes);
				}, span);
			}),
		ms
	);
}

/** Opens the app and waits until it has left its "Opening your sessions…" splash. */
export async function openApp(page: Page, path = '/'): Promise<void> {
	await page.goto(path);
	await expect(page.getByRole('textbox', { name: 'Message' })).toBeVisible();
}

/**
 * Types a message and sends it with Enter. The first message of a draft creates a session,
 * so this also waits for the address to become /s/<id>.
 */
export async function sendMessage(page: Page, text: string): Promise<void> {
	// A compaction before the call may take earlier messages out of the transcript as this one
	// goes in, so the count of messages says nothing; the new row is the one past every seq
	// shown before (or, when the conversation went on in another session, in another address).
	const seqs = await transcript(page).locator('article[data-seq]').evaluateAll((rows) => rows.map((row) => Number(row.getAttribute('data-seq'))));
	const lastSeq = Math.max(-1, ...seqs);
	const url = page.url();
	const box = page.getByRole('textbox', { name: 'Message' });
	await box.fill(text);
	await box.press('Enter');
	await expect
		.poll(async () => {
			const last = userMessages(page).last();
			if ((await last.count()) === 0) return false;
			const seq = Number(await last.getAttribute('data-seq'));
			if (page.url() === url || lastSeq < 0) return seq > lastSeq;
			// Another session's rows start their own count: there, this message is the last one.
			return ((await last.textContent()) ?? '').includes(text.split('\n')[0].slice(0, 80));
		}, { message: `the message "${text.slice(0, 40)}" appears in the transcript`, timeout: 10_000 })
		.toBe(true);
	await expect(page).toHaveURL(/\/s\/[^/]+$/);
}

/** Waits until the last assistant answer has finished with the given status. */
export async function waitForAnswer(page: Page, status = 'complete', timeout?: number): Promise<Locator> {
	const answer = assistantMessages(page).last();
	await expect(answer).toHaveAttribute('data-status', status, { timeout });
	await expect(page.getByRole('button', { name: 'Send' })).toBeVisible();
	return answer;
}

/**
 * Sends a message and waits for its own answer to finish (not an earlier answer that is
 * already complete), with the Send button back.
 */
export async function sendAndWait(page: Page, text: string, timeout = 30_000): Promise<Locator> {
	await sendMessage(page, text);
	// The row after the message just sent: earlier answers may be compacted away meanwhile.
	const last = transcript(page).getByRole('article').last();
	await expect(last).toHaveAttribute('aria-label', 'Assistant', { timeout });
	await expect(last).toHaveAttribute('data-status', 'complete', { timeout });
	await expect(page.getByRole('button', { name: 'Send' })).toBeVisible();
	return last;
}

/** The id in the current /s/<id> address. */
export function sessionIdFromUrl(page: Page): string {
	const match = /\/s\/([^/?#]+)/.exec(page.url());
	if (!match) throw new Error(`Not on a session page: ${page.url()}`);
	return decodeURIComponent(match[1]);
}

/** Session links in the sidebar, top to bottom (the brand and page links excluded). */
export function sessionLinks(page: Page): Locator {
	return sidebar(page).getByRole('listitem').getByRole('link');
}

/** Starts a draft with "New session" and waits for the empty chat at `/`. */
export async function newSession(page: Page): Promise<void> {
	await sidebar(page).getByRole('button', { name: 'New session' }).click();
	await expect(page).toHaveURL(/\/$/);
	await expect(userMessages(page)).toHaveCount(0);
}

/** Waits until the service worker controls the page, so its cache answers the next reload. */
export async function waitForServiceWorkerControl(page: Page): Promise<void> {
	await page.evaluate(async () => {
		await navigator.serviceWorker.ready;
	});
	// clients.claim() normally hands this page to the worker at once; a reload makes sure.
	if (!(await page.evaluate(() => navigator.serviceWorker.controller !== null))) {
		await page.reload();
	}
	await expect.poll(() => page.evaluate(() => navigator.serviceWorker.controller !== null)).toBe(true);
}

/**
 * Waits until a request the cache cannot answer really fails, including one the service worker
 * forwards to the network. (navigator.onLine is no proof: Chromium can report true for a moment
 * after a reload under emulated offline, and the service worker's own requests can still go out
 * for a moment after the network is turned off.)
 */
export async function expectNetworkOff(page: Page, url = `/not-cached-${Date.now()}.txt`): Promise<void> {
	await expect
		.poll(() =>
			page.evaluate(async (target) => {
				try {
					await fetch(target, { cache: 'no-store' });
					return 'reachable';
				} catch {
					return 'off';
				}
			}, url)
		)
		.toBe('off');
}

export type SessionAction = 'Rename' | 'Pin' | 'Archive' | 'Delete' | 'Export' | 'Export as Markdown';

/** Opens a session row's "Session actions" menu and returns the menu. */
export async function openSessionActions(page: Page, row: Locator): Promise<Locator> {
	await row.getByRole('button', { name: 'Session actions' }).click();
	const menu = page.getByRole('menu', { name: 'Session actions' });
	await expect(menu).toBeVisible();
	return menu;
}

/** The menu item of an action ("Pin" is a checkbox item: checked while pinned). */
export function sessionActionItem(menu: Locator, action: SessionAction): Locator {
	return menu.getByRole(action === 'Pin' ? 'menuitemcheckbox' : 'menuitem', { name: action, exact: true });
}

/** Chooses one of a session row's actions from its menu. */
export async function sessionAction(page: Page, row: Locator, action: SessionAction): Promise<void> {
	await sessionActionItem(await openSessionActions(page, row), action).click();
}

/** Enters selection mode ("Select" in the list's header), where each row has its "Select" box. */
export async function startSelecting(page: Page): Promise<void> {
	const select = sidebar(page).getByRole('button', { name: 'Select', exact: true });
	await expect(select).toHaveAttribute('aria-pressed', 'false');
	await select.click();
	await expect(select).toHaveAttribute('aria-pressed', 'true');
}

/** `secret` is in none of the `requests` a provider got, nor in "What the model received" on `answer` (which it closes). */
export async function expectNeverSentToModel(page: Page, answer: Locator, requests: unknown[], secret: string): Promise<void> {
	expect(JSON.stringify(requests)).not.toContain(secret);
	await answer.getByRole('button', { name: 'What the model received' }).click();
	const received = page.getByRole('dialog', { name: 'What the model received' });
	await expect(received.getByLabel('Request body')).toBeVisible();
	await expect(received).not.toContainText(secret);
	await received.getByRole('button', { name: 'Close' }).click();
}
