// Two devices (two browser contexts, each its own IndexedDB) show the same conversation: an answer
// whose model pauses mid-stream reaches the other device, and a rename made there meanwhile
// holds; an attached image reaches the other device; and a Sync server switched to a new
// database gets every session again, so a new device there lists them all.
import { expect, test } from './test-base';
import { messageBody, newSession, openApp, sendAndWait, sendMessage, sessionAction, sessionLinks, sidebar, transcript, waitForAnswer, assistantMessages } from './helpers';
import { attachByButton, png, send } from './attachment-helpers';
import { addCustomProvider, navigate } from './plugin-helpers';
import { chooseModel } from './provider-helpers';
import { createDatabase as createDatabaseOn, secondDevice, startSync } from './sync-helpers';
import { useCouchServer, useMockProvider } from './test-servers';

const couch = useCouchServer();
const mock = useMockProvider();
const createDatabase = () => createDatabaseOn(couch.url);

test('an answer whose model pauses mid-stream reaches the other device, and a rename made there meanwhile holds on both', async ({ page, browser }) => {
	// Two devices, a provider and 6 s of the model's pauses.
	test.setTimeout(120_000);
	const database = await createDatabase();
	await openApp(page);
	await chooseModel(page, await addCustomProvider(page, `${mock.url}/v1`, 'mock-model'));
	await sendAndWait(page, 'Plan a trip');
	await startSync(page, database);
	const phone = await secondDevice(browser);
	await startSync(phone, database);
	await expect(sessionLinks(phone)).toHaveText(['Plan a trip']);

	// The model says a first part, then thinks for 3 s before the rest.
	mock.script([{ type: 'text', text: 'Lisbon first, then after some thought, Porto.', chunks: 2, delayMs: 3000 }]);
	await sendMessage(page, 'Where to?');
	await expect(assistantMessages(page).last()).toHaveText(/Lisbon first/);
	await expect(assistantMessages(page).last()).toHaveAttribute('data-status', 'streaming');
	const row = sidebar(phone).getByRole('listitem').filter({ has: phone.getByRole('link', { name: 'Plan a trip', exact: true }) });
	await sessionAction(phone, row, 'Rename');
	const title = sidebar(phone).getByRole('textbox', { name: 'Session title' });
	await title.fill('Portugal');
	await title.press('Enter');
	await waitForAnswer(page);

	const lines = ['Plan a trip', 'Mock answer to: Plan a trip', 'Where to?', 'Lisbon first, then after some thought, Porto.'];
	await expect(sessionLinks(page)).toHaveText(['Portugal'], { timeout: 20_000 });
	await sessionLinks(phone).first().click();
	await expect(messageBody(transcript(phone).getByRole('article'))).toHaveText(lines, { timeout: 20_000 });
	await expect(transcript(phone).getByRole('article').last()).toHaveAttribute('data-status', 'complete');
	// Later pulls bring neither the old title back nor lose the answer.
	await phone.reload();
	await expect(sessionLinks(phone)).toHaveText(['Portugal']);
	await expect(messageBody(transcript(phone).getByRole('article'))).toHaveText(lines);
	await page.reload();
	await expect(sessionLinks(page)).toHaveText(['Portugal']);
	await phone.context().close();
});

test('an attached image reaches the other device, which lists its session and shows the image', async ({ page, browser }) => {
	const database = await createDatabase();
	await openApp(page);
	await chooseModel(page, await addCustomProvider(page, `${mock.url}/v1`, 'mock-model'));
	await startSync(page, database);
	await attachByButton(page, [{ name: 'photo.png', mimeType: 'image/png', buffer: png(30, 20) }]);
	await send(page, 'What is in the picture?');
	await waitForAnswer(page);

	const phone = await secondDevice(browser);
	await startSync(phone, database);
	await expect(sessionLinks(phone)).toHaveText(['What is in the picture?'], { timeout: 20_000 });
	await sessionLinks(phone).first().click();
	const image = transcript(phone).getByRole('img', { name: 'photo.png (30 × 20)' });
	await expect(image).toBeVisible({ timeout: 20_000 });
	await expect.poll(() => image.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth === 30)).toBe(true);
	await phone.context().close();
});

test('a Sync server switched to a new database gets every session again: a new device there lists them all', async ({ page, browser }) => {
	const [first, second] = [await createDatabase(), await createDatabase()];
	await openApp(page);
	await sendAndWait(page, 'echo: synced before');
	await startSync(page, first);
	await newSession(page);
	await sendAndWait(page, 'echo: also before');
	await navigate(page, 'Settings');
	const sync = page.getByRole('region', { name: 'Sync' });
	await expect(sync.getByRole('status', { name: 'Sync status' })).toHaveText(/^Up to date/, { timeout: 20_000 });
	await sync.getByRole('button', { name: 'Stop sync' }).click();
	await expect(sync.getByRole('status', { name: 'Sync status' })).toHaveText('Sync is off.');
	await startSync(page, second);

	const phone = await secondDevice(browser);
	await startSync(phone, second);
	await expect(sessionLinks(phone)).toHaveText(['echo: also before', 'echo: synced before'], { timeout: 20_000 });
	await phone.context().close();
});
