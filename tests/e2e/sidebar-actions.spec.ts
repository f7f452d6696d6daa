// Acting on sessions from the sidebar: exporting a selection, making room when storage is full
// (the alert's Delete sessions lists the sessions that store the most, to tick and delete), and
// a row's own actions, which leave no error in the page when the row goes away.
import { expect, test, type Page } from './test-base';
import { readFile, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { newSession, openApp, sendMessage, sessionAction, sessionLinks, sidebar, startSelecting, waitForAnswer } from './helpers';
import { readRows } from './plugin-helpers';
import { sendWhenStorageFull } from './storage-helpers';

let dir: string;

test.beforeEach(async () => {
	dir = await mkdtemp(join(tmpdir(), 'palimpsest-sidebar-'));
});

test.afterEach(async () => {
	await rm(dir, { recursive: true, force: true });
});

async function say(page: Page, text: string, fresh = true): Promise<void> {
	if (fresh) await newSession(page);
	await sendMessage(page, text);
	await waitForAnswer(page, 'complete', 30_000);
}

function row(page: Page, title: string) {
	return sidebar(page).getByRole('listitem').filter({ has: page.getByRole('link', { name: title, exact: true }) });
}

async function download(page: Page, click: () => Promise<void>): Promise<{ name: string; text: string }> {
	const pending = page.waitForEvent('download');
	await click();
	const file = await pending;
	const path = join(dir, file.suggestedFilename());
	await file.saveAs(path);
	return { name: file.suggestedFilename(), text: await readFile(path, 'utf8') };
}

test('Export selected saves just the ticked sessions, as JSON or as Markdown', async ({ page }) => {
	await openApp(page);
	await say(page, 'echo: first to keep', false);
	await say(page, 'echo: not this one');
	await say(page, 'echo: second to keep');
	await startSelecting(page);
	await row(page, 'echo: first to keep').getByRole('checkbox', { name: 'Select' }).check();
	await row(page, 'echo: second to keep').getByRole('checkbox', { name: 'Select' }).check();
	const bar = sidebar(page).getByRole('group', { name: 'Selected sessions' });

	const json = await download(page, () => bar.getByRole('button', { name: 'Export selected', exact: true }).click());
	expect(json.name).toMatch(/\.json$/);
	const saved = JSON.parse(json.text);
	expect(saved.session_count).toBe(2);
	expect(saved.sessions.map((s: { session: { title: string } }) => s.session.title).sort()).toEqual(['echo: first to keep', 'echo: second to keep']);
	await expect(bar.getByRole('status', { name: 'Export status' })).toHaveText(`Exported 2 sessions (4 messages) as JSON: ${json.name}`);

	const markdown = await download(page, () => bar.getByRole('button', { name: 'Export selected as Markdown' }).click());
	expect(markdown.name).toMatch(/\.md$/);
	expect(markdown.text).toContain('## echo: second to keep');
	expect(markdown.text).not.toContain('not this one');
	// Exporting keeps the selection, ready for Delete selected.
	await expect(bar).toContainText('2 selected');
});

test('in selection mode a click (or Enter) on a session ticks it, and another click unticks it, without opening it', async ({ page }) => {
	await openApp(page);
	await say(page, 'echo: tick me', false);
	await say(page, 'echo: open here');
	const open = page.url();
	await startSelecting(page);
	const target = row(page, 'echo: tick me');
	const link = target.getByRole('link', { name: 'echo: tick me', exact: true });
	await link.click();
	await expect(target.getByRole('checkbox', { name: 'Select' })).toBeChecked();
	await expect(sidebar(page).getByRole('group', { name: 'Selected sessions' })).toContainText('1 selected');
	expect(page.url()).toBe(open);
	await link.click();
	await expect(target.getByRole('checkbox', { name: 'Select' })).not.toBeChecked();
	expect(page.url()).toBe(open);
	// Enter on a session does what a click does.
	await link.press('Enter');
	await expect(target.getByRole('checkbox', { name: 'Select' })).toBeChecked();
	expect(page.url()).toBe(open);

	// Out of selection mode (which clears the selection), a click opens the session again.
	await sidebar(page).getByRole('button', { name: 'Select', exact: true }).click();
	await link.click();
	await expect(page).not.toHaveURL(open);
	await expect(page.getByRole('heading', { level: 1 })).toHaveText('echo: tick me');
});

test('when storage is full, Delete sessions lists the largest first; deleting the ticked one frees its space', async ({ page }) => {
	await openApp(page);
	await say(page, 'echo: a short one', false);
	const big = `echo: ${'a long pasted log line '.repeat(300)}`;
	await say(page, big);
	await say(page, 'echo: another short one');
	const bigSessionTitle = async () => (await readRows(page, 'palimpsest-default', 'sessions')).find((s) => String(s.title).startsWith('echo: a long'))?.title as string | undefined;
	await expect.poll(bigSessionTitle).toBeDefined();
	const bigTitle = (await bigSessionTitle())!;

	// From here on the page cannot store a new session or message, as on a full disk; a
	// deletion's receipt (a few hundred bytes) still fits.
	await page.evaluate(() => {
		for (const method of ['add', 'put'] as const) {
			const original = IDBObjectStore.prototype[method];
			IDBObjectStore.prototype[method] = function (this: IDBObjectStore, ...args: Parameters<typeof original>) {
				if (this.name === 'sessions' || this.name === 'messages') throw new DOMException('The quota has been exceeded.', 'QuotaExceededError');
				return original.apply(this, args);
			};
		}
	});
	const { alert } = await sendWhenStorageFull(page, 'this will not fit');

	await alert.getByRole('button', { name: 'Delete sessions' }).click();
	const dialog = page.getByRole('dialog', { name: 'Free up space' });
	await expect(dialog).toBeVisible();
	const boxes = dialog.getByRole('list', { name: 'Largest sessions' }).getByRole('checkbox');
	await expect(boxes).toHaveCount(3);
	// Largest first: the long log, then the two short ones.
	await expect(boxes.first()).toHaveAccessibleName(bigTitle);
	await expect(dialog.getByRole('button', { name: 'Delete' })).toBeDisabled();
	// Escape changes nothing.
	await page.keyboard.press('Escape');
	await expect(dialog).toBeHidden();
	await expect(sessionLinks(page)).toHaveCount(3);

	await alert.getByRole('button', { name: 'Delete sessions' }).click();
	await expect(boxes.first()).toBeFocused();
	await page.keyboard.press('Space');
	await expect(dialog.getByRole('status').last()).toHaveText(/^1 session ticked, about \d+ KB of text\.$/);
	await dialog.getByRole('button', { name: 'Delete' }).click();
	await expect(dialog.getByRole('status').last()).toHaveText(/^Deleted 1 session\. This site now stores .+ \(it was .+\)\.$/);
	await expect(boxes).toHaveCount(2);
	await expect(sessionLinks(page)).toHaveText(['echo: another short one', 'echo: a short one']);
	const sessions = await readRows(page, 'palimpsest-default', 'sessions');
	expect(sessions.map((s) => s.title)).not.toContain(bigTitle);
	const messages = await readRows(page, 'palimpsest-default', 'messages');
	expect(messages.some((m) => String(m.content).includes('a long pasted log line'))).toBe(false);
	await dialog.getByRole('button', { name: 'Close' }).click();
	await expect(dialog).toBeHidden();
});

/** Uncaught errors and console errors of the page from now on. */
function recordErrors(page: Page): string[] {
	const errors: string[] = [];
	page.on('pageerror', (error) => errors.push(`pageerror: ${error.message}\n${error.stack}`));
	page.on('console', (message) => {
		if (message.type() === 'error') errors.push(`console: ${message.text()}`);
	});
	return errors;
}

test("a row's own Archive and Delete finish without an error in the page", async ({ page }) => {
	await openApp(page, '/?safe=1');
	await say(page, 'echo: archive me', false);
	await say(page, 'echo: delete me');
	await say(page, 'echo: stays');
	const errors = recordErrors(page);

	await sessionAction(page, row(page, 'echo: archive me'), 'Archive');
	await expect(sessionLinks(page)).toHaveText(['echo: stays', 'echo: delete me']);
	await sessionAction(page, row(page, 'echo: delete me'), 'Delete');
	await page.getByRole('dialog', { name: 'Delete this session?' }).getByRole('button', { name: 'Delete' }).click();
	await expect(sessionLinks(page)).toHaveText(['echo: stays']);
	// The open session, deleted from its own row.
	await sessionAction(page, row(page, 'echo: stays'), 'Delete');
	await page.getByRole('dialog', { name: 'Delete this session?' }).getByRole('button', { name: 'Delete' }).click();
	await expect(sessionLinks(page)).toHaveCount(0);
	await expect(page).toHaveURL(/\/$/);

	expect(errors).toEqual([]);
});

test('leaving the title box (Tab) keeps a changed title; the row keeps no edit behind', async ({ page }) => {
	await openApp(page, '/?safe=1');
	await say(page, 'echo: a first title', false);
	await sessionAction(page, row(page, 'echo: a first title'), 'Rename');
	const input = sidebar(page).getByRole('textbox', { name: 'Session title' });
	await expect(input).toBeFocused();
	await input.fill('A better title');
	await input.press('Tab');
	await expect(input).toHaveCount(0);
	await expect(sessionLinks(page)).toHaveText(['A better title']);
	await page.reload();
	await expect(sessionLinks(page)).toHaveText(['A better title']);
});

test('a session deleted in another tab while its title is being edited here leaves no error', async ({ context, page }) => {
	await openApp(page, '/?safe=1');
	await say(page, 'echo: being renamed', false);
	await say(page, 'echo: open here');
	const other = await context.newPage();
	await openApp(other, '/?safe=1');
	const errors = recordErrors(page);

	await sessionAction(page, row(page, 'echo: being renamed'), 'Rename');
	await expect(sidebar(page).getByRole('textbox', { name: 'Session title' })).toBeFocused();
	await sessionAction(other, row(other, 'echo: being renamed'), 'Delete');
	await other.getByRole('dialog', { name: 'Delete this session?' }).getByRole('button', { name: 'Delete' }).click();
	await expect(sidebar(page).getByRole('textbox', { name: 'Session title' })).toHaveCount(0);
	await expect(sessionLinks(page)).toHaveText(['echo: open here']);

	expect(errors).toEqual([]);
});

test("a row's Session actions menu exports that session, as JSON or as Markdown", async ({ page }) => {
	await openApp(page);
	await say(page, 'echo: export just me', false);
	await say(page, 'echo: not me');

	const json = await download(page, () => sessionAction(page, row(page, 'echo: export just me'), 'Export'));
	expect(json.name).toMatch(/\.json$/);
	const saved = JSON.parse(json.text);
	expect(saved.sessions.map((s: { session: { title: string } }) => s.session.title)).toEqual(['echo: export just me']);
	await expect(sidebar(page).getByRole('status', { name: 'Export status' })).toHaveText(/Exported 1 session \(2 messages\) as JSON/);

	const markdown = await download(page, () => sessionAction(page, row(page, 'echo: export just me'), 'Export as Markdown'));
	expect(markdown.name).toMatch(/\.md$/);
	expect(markdown.text).toContain('## echo: export just me');
	expect(markdown.text).not.toContain('not me');
});

test('an archived session opened from Archived says so, is marked above the list, and Unarchive brings it back', async ({ page }) => {
	await openApp(page);
	await say(page, 'echo: put away', false);
	await say(page, 'echo: still listed');
	await sessionAction(page, row(page, 'echo: put away'), 'Archive');
	await expect(sessionLinks(page)).toHaveText(['echo: still listed']);

	await sidebar(page).getByRole('link', { name: 'Archived', exact: true }).click();
	await page.getByRole('list', { name: 'Archived sessions' }).getByRole('link', { name: 'echo: put away' }).click();
	const banner = page.getByRole('region', { name: 'Archived session' });
	await expect(banner).toContainText('This session is archived');
	// Not in the list, but shown above it as the open session.
	const marked = sidebar(page).getByRole('link', { name: 'echo: put away', exact: true });
	await expect(marked).toHaveAttribute('aria-current', 'page');
	await expect(sessionLinks(page)).toHaveText(['echo: still listed']);

	await banner.getByRole('button', { name: 'Unarchive' }).click();
	await expect(banner).toHaveCount(0);
	await expect(sessionLinks(page)).toHaveText(['echo: still listed', 'echo: put away']);
	await expect(row(page, 'echo: put away').getByRole('link')).toHaveAttribute('aria-current', 'page');
	// Focus goes on to the conversation, not to the page itself.
	await expect(page.getByRole('textbox', { name: 'Message' })).toBeFocused();
});

test('the sidebar shows the profile in use, which leads to its settings', async ({ page }) => {
	await openApp(page);
	const profile = sidebar(page).getByRole('link', { name: /^Profile: Default/ });
	await expect(profile).toHaveText('Default');
	await profile.click();
	await expect(page).toHaveURL(/\/settings#profile-heading$/);
	await expect(page.getByRole('combobox', { name: 'Profile' })).toBeVisible();
});
