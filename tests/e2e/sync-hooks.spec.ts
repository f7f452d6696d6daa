// Hooks fire only on the device where the action happened: a deletion or a compaction made on
// one device reaches the other by sync, and the other device's plugins hear nothing of it
// (nor does its Hook log record it), while the device that made it hears it once, at the next
// start if the tab closed before its plugins had heard it.
import { expect, test, type Locator, type Page } from './test-base';
import { newSession, openApp, sendAndWait, sessionAction, sessionIdFromUrl, sessionLinks, sidebar, transcript, userMessages } from './helpers';
import { addPlugin, commandOutputs, navigate, runCommand } from './plugin-helpers';
import { createDatabase, secondDevice, startSync } from './sync-helpers';
import { useCouchServer, usePluginOrigins } from './test-servers';

const couch = useCouchServer();
const origins = usePluginOrigins();

/** Adds the Sync witness plugin (in memory: it hears only this tab); back to the chat after. */
async function addWitness(page: Page): Promise<void> {
	await addPlugin(page, `${origins.cors}/sync-witness.js`, 'Sync witness');
	await navigate(page, 'Chat');
}

/** What the witness heard in this tab, one `hook:session_id` per call. */
async function heard(page: Page): Promise<string[]> {
	const output = await runCommand(page, '/heard');
	await expect(output).toContainText(/\(none\)|:/);
	const text = await output.innerText();
	return [...text.matchAll(/(on_session_delete|post_compaction):[\w-]+/g)].map((match) => match[0]);
}

/** Hook log rows of one hook (the Plugins page is opened). */
async function hookLogCalls(page: Page, hook: string): Promise<Locator> {
	await navigate(page, 'Plugins');
	return page
		.getByRole('region', { name: 'Hook log' })
		.getByRole('row')
		.filter({ has: page.getByRole('cell', { name: hook, exact: true }) });
}

const marker = (page: Page) => transcript(page).getByRole('region', { name: 'Context compacted' });

test('a session deleted on one device fires on_session_delete there once; the other device loses it and hears nothing', async ({ page, browser }) => {
	const database = await createDatabase(couch.url);
	await openApp(page);
	await addWitness(page);
	await sendAndWait(page, 'echo: keep me');
	await newSession(page);
	await sendAndWait(page, 'echo: delete me');
	const doomed = sessionIdFromUrl(page);
	await startSync(page, database);

	const phone = await secondDevice(browser);
	await addWitness(phone);
	await startSync(phone, database);
	await expect(sessionLinks(phone)).toHaveText(['echo: delete me', 'echo: keep me']);
	// The phone shows the session when it goes: what it shows may not make it fire anything either.
	await sidebar(phone).getByRole('link', { name: 'echo: delete me', exact: true }).click();
	await expect(userMessages(phone)).toHaveCount(1);

	const row = sidebar(page).getByRole('listitem').filter({ has: page.getByRole('link', { name: 'echo: delete me', exact: true }) });
	await sessionAction(page, row, 'Delete');
	await page.getByRole('dialog', { name: 'Delete this session?' }).getByRole('button', { name: 'Delete' }).click();
	await expect(sessionLinks(page)).toHaveText(['echo: keep me']);
	await expect(sessionLinks(phone)).toHaveText(['echo: keep me'], { timeout: 20_000 });
	await expect(phone.getByRole('alert')).toContainText('This session no longer exists.');

	await expect.poll(() => heard(page)).toEqual([`on_session_delete:${doomed}`]);
	await phone.getByRole('link', { name: 'Start a new session' }).click();
	expect(await heard(phone)).toEqual([]);
	await expect(await hookLogCalls(phone, 'on_session_delete')).toHaveCount(0);
	await expect(await hookLogCalls(page, 'on_session_delete')).toHaveCount(1);
	await phone.context().close();
});

test('a compaction on one device fires post_compaction there once; the other shows the summary with the messages folded and hears nothing', async ({ page, browser }) => {
	// Two browsers, a plugin in each, long answers and a compaction: on a busy machine this takes more than a minute.
	test.slow();
	const database = await createDatabase(couch.url);
	await openApp(page);
	await addWitness(page);
	await sendAndWait(page, 'long 400 about lighthouses');
	await sendAndWait(page, 'long 400 about tides');
	const session = sessionIdFromUrl(page);
	await startSync(page, database);

	const phone = await secondDevice(browser);
	await addWitness(phone);
	await startSync(phone, database);
	await sidebar(phone).getByRole('link', { name: 'long 400 about lighthouses', exact: true }).click();
	await expect(userMessages(phone)).toHaveCount(2);

	await runCommand(page, '/compress');
	await expect(marker(page)).toHaveCount(1);
	await expect(userMessages(page).filter({ hasText: 'lighthouses' })).toHaveCount(0);

	// The phone, still showing the session, gets the summary and folds what it covers.
	await expect(marker(phone)).toHaveCount(1, { timeout: 20_000 });
	await expect(userMessages(phone).filter({ hasText: 'lighthouses' })).toHaveCount(0);
	await marker(phone).getByRole('button', { name: 'Show compacted messages' }).click();
	const folded = marker(phone).getByRole('region', { name: 'Compacted messages' });
	await expect(folded.getByRole('article', { name: 'You' }).filter({ hasText: 'lighthouses' })).toHaveCount(1);

	await expect.poll(() => heard(page)).toEqual([`post_compaction:${session}`]);
	// Commands run in the session sync too: the phone shows the laptop's before it runs its own.
	await expect(commandOutputs(phone)).toHaveCount(await commandOutputs(page).count(), { timeout: 20_000 });
	expect(await heard(phone)).toEqual([]);
	await expect(await hookLogCalls(phone, 'post_compaction')).toHaveCount(0);
	await expect(await hookLogCalls(page, 'post_compaction')).toHaveCount(1);
	await phone.context().close();
});

test('a deletion whose tab closed before its plugins had heard it fires on_session_delete once at the next start', async ({ page }) => {
	await openApp(page);
	await addWitness(page);
	await sendAndWait(page, 'echo: delete me');
	const doomed = sessionIdFromUrl(page);
	await newSession(page);
	await sendAndWait(page, 'echo: keep me');
	await runCommand(page, '/hold');
	const row = sidebar(page).getByRole('listitem').filter({ has: page.getByRole('link', { name: 'echo: delete me', exact: true }) });
	await sessionAction(page, row, 'Delete');
	await page.getByRole('dialog', { name: 'Delete this session?' }).getByRole('button', { name: 'Delete' }).click();
	await expect(sessionLinks(page)).toHaveText(['echo: keep me']);
	// What this tab's plugins heard of that deletion (a start-up sweep may announce others).
	const heardOfIt = async (tab: Page) => (await heard(tab)).filter((line) => line === `on_session_delete:${doomed}`);
	await expect.poll(() => heardOfIt(page)).toHaveLength(1);

	const context = page.context();
	await page.close();
	const next = await context.newPage();
	await openApp(next);
	await expect.poll(() => heardOfIt(next), { timeout: 15_000 }).toHaveLength(1);
});
