// Two devices (two browser contexts, each its own IndexedDB) syncing through one database of a
// CouchDB-compatible server: an image a tool returned on one shows on the other, decoded from
// bytes that came as an attachment of its message; one above the laptop's limit stays there,
// and the phone says why in its place.
import { expect, test, type Page } from './test-base';
import { openApp, openToolCall, sendMessage, sessionLinks, transcript, waitForAnswer } from './helpers';
import { addCustomProvider, navigate } from './plugin-helpers';
import { createDatabase as createDatabaseOn, secondDevice, startSync } from './sync-helpers';
import { useCouchServer, useMockProvider, useReferenceToolServer } from './test-servers';

const couch = useCouchServer();
const mock = useMockProvider();
const server = useReferenceToolServer();

const IMAGE = /^Image the tool returned \(image\/png, \d+ × \d+\)$/;

/** On the laptop: the reference tool server's tiny image, returned to a first question. */
async function showTinyImage(page: Page): Promise<void> {
	const label = await addCustomProvider(page, `${mock.url}/v1`, 'mock-model');
	await navigate(page, 'Settings');
	await page.getByRole('textbox', { name: 'Tool server URL' }).fill(server.url);
	await page.getByRole('button', { name: 'Add tool server' }).click();
	const row = page.getByRole('list', { name: 'Tool servers' }).getByRole('listitem', { name: 'mcp-servers/everything', exact: true });
	await expect(row.getByText('Connected', { exact: true })).toBeVisible();
	await navigate(page, 'Chat');
	await page.getByRole('combobox', { name: 'Model', exact: true }).selectOption({ label });
	await sendMessage(page, 'What tools do you have?');
	await waitForAnswer(page);
	const tools: Array<{ function: { name: string } }> = mock.requests.at(-1)!.body.tools ?? [];
	const name = tools.map((t) => t.function.name).find((n) => n.endsWith('get-tiny-image'))!;
	mock.script([{ type: 'tool_call', name, arguments: {} }, { type: 'text', text: 'A tiny image.' }]);
	await sendMessage(page, 'Show me a tiny image.');
	await page.getByRole('dialog', { name: 'Run a tool?' }).getByRole('button', { name: 'Allow once' }).click();
	await waitForAnswer(page);
	await openToolCall(transcript(page).getByRole('article', { name: 'Tool result' }).last());
	await expect(transcript(page).getByRole('article', { name: 'Tool result' }).last().getByRole('img', { name: IMAGE })).toBeVisible();
}

test('an image a tool returned on one device shows on the other', async ({ page, browser }) => {
	const database = await createDatabaseOn(couch.url);
	await openApp(page);
	await showTinyImage(page);
	await startSync(page, database);

	const phone = await secondDevice(browser);
	await startSync(phone, database);
	await sessionLinks(phone).filter({ hasText: 'What tools do you have?' }).click();
	await openToolCall(transcript(phone).getByRole('article', { name: 'Tool result' }).last());
	const image = transcript(phone).getByRole('article', { name: 'Tool result' }).last().getByRole('img', { name: IMAGE });
	await expect(image).toBeVisible();
	// Decoded from the bytes that came, not a broken picture.
	await expect.poll(() => image.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth > 0)).toBe(true);
	await phone.context().close();
});

test('an image above the limit for synced attachments stays on its device, and the other says why', async ({ page, browser }) => {
	const database = await createDatabaseOn(couch.url);
	await openApp(page);
	await showTinyImage(page);
	await navigate(page, 'Settings');
	const limit = page.getByRole('region', { name: 'Sync' }).getByRole('spinbutton', { name: 'Largest attachment that syncs (MB)' });
	await expect(limit).toHaveValue('10');
	await limit.fill('0');
	await limit.blur();
	await expect(page.getByRole('status', { name: 'Save status' })).toHaveText('Saved');
	await startSync(page, database);

	const phone = await secondDevice(browser);
	await startSync(phone, database);
	await sessionLinks(phone).filter({ hasText: 'What tools do you have?' }).click();
	const result = transcript(phone).getByRole('article', { name: 'Tool result' }).last();
	await openToolCall(result);
	await expect(result).toContainText(/Image the tool returned \(image\/png, \d+ × \d+\): not synced: it is \d+ (bytes|KB), larger than the 0 bytes limit for synced attachments on the device it was made on/);
	await expect(result.getByRole('img')).toHaveCount(0);
	await phone.context().close();
});
