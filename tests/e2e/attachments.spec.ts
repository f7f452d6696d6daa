// Attachments from the user's side: images and text files attached by the Attach button, by a
// drop on the chat or by paste, shown as chips with their limits, sent in each provider's wire
// format, shown in the transcript, asked about before going to a model that cannot see,
// carried through export and import, and deleted with their session.
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, test, type Page } from './test-base';
import { newSession, numberIn, openApp, sessionAction, sidebar, transcript, userMessages, waitForAnswer } from './helpers';
import { addCustomProvider, addPlugin, navigate, readRows, runCommand } from './plugin-helpers';
import { addProvider, chooseModel } from './provider-helpers';
import { attachByButton, chip, chips, png, send } from './attachment-helpers';
import { createProfile } from './profile-helpers';
import { useMockProvider, usePluginOrigins } from './test-servers';

const mock = useMockProvider();
const origins = usePluginOrigins();

const PHOTO = { name: 'photo.png', mimeType: 'image/png', buffer: png(30, 20) };
const NOTES = { name: 'notes.md', mimeType: 'text/markdown', buffer: Buffer.from('# Plan\n\nKyoto in spring, 3 days.\n') };
const PHOTO_BASE64 = PHOTO.buffer.toString('base64');


/** Makes a DataTransfer in the page holding `file`, for a drop or a paste. */
async function transferOf(page: Page, file: { name: string; mimeType: string; buffer: Buffer }) {
	return page.evaluateHandle(({ name, type, base64 }) => {
		const bytes = Uint8Array.from(atob(base64), (char) => char.charCodeAt(0));
		const transfer = new DataTransfer();
		transfer.items.add(new File([bytes], name, { type }));
		return transfer;
	}, { name: file.name, type: file.mimeType, base64: file.buffer.toString('base64') });
}

/** Drops a file on the transcript as a file manager would: dragenter, dragover, drop. */
async function attachByDrop(page: Page, file: { name: string; mimeType: string; buffer: Buffer }): Promise<void> {
	const dataTransfer = await transferOf(page, file);
	const target = transcript(page);
	await target.dispatchEvent('dragenter', { dataTransfer });
	await target.dispatchEvent('dragover', { dataTransfer });
	await expect(page.getByText('Drop files here to attach them to your message')).toBeVisible();
	await target.dispatchEvent('drop', { dataTransfer });
	await expect(page.getByText('Drop files here to attach them to your message')).toHaveCount(0);
}

/** Pastes a file into the Message box, as a screenshot from the clipboard is pasted. */
async function attachByPaste(page: Page, file: { name: string; mimeType: string; buffer: Buffer }): Promise<void> {
	const clipboardData = await transferOf(page, file);
	await page.getByRole('textbox', { name: 'Message' }).evaluate((box, data) => {
		box.dispatchEvent(new ClipboardEvent('paste', { clipboardData: data as DataTransfer, bubbles: true, cancelable: true }));
	}, clipboardData);
}

/** The bytes of a stored Blob of a session, as base64. */
function storedBase64(page: Page, database: string, sessionId: string, id: string): Promise<string | null> {
	return page.evaluate(
		([database, sessionId, id]) =>
			new Promise<string | null>((resolve, reject) => {
				const open = indexedDB.open(database);
				open.onerror = () => reject(open.error);
				open.onsuccess = () => {
					const request = open.result.transaction('blobs', 'readonly').objectStore('blobs').get([sessionId, id]);
					request.onerror = () => reject(request.error);
					request.onsuccess = async () => {
						open.result.close();
						const row = request.result as { data: Blob } | undefined;
						if (!row) return resolve(null);
						const bytes = new Uint8Array(await row.data.arrayBuffer());
						resolve(btoa(String.fromCharCode(...bytes)));
					};
				};
			}),
		[database, sessionId, id]
	);
}

test('attached by the Attach button: chips with name, size and Remove; Chat Completions gets the image as a data URL and the file as a text part with its name; the transcript shows both', async ({ page, context }) => {
	await context.grantPermissions(['clipboard-read', 'clipboard-write']);
	await openApp(page);
	const label = await addCustomProvider(page, `${mock.url}/v1`, 'mock-model');
	await chooseModel(page, label);
	await attachByButton(page, [PHOTO, NOTES, { name: 'extra.txt', mimeType: 'text/plain', buffer: Buffer.from('not this one') }]);
	await expect(chips(page).getByRole('listitem')).toHaveCount(3);
	await expect(chip(page, 'photo.png')).toContainText(`${PHOTO.buffer.length} bytes`);
	await expect(chip(page, 'notes.md')).toContainText(`${NOTES.buffer.length} bytes`);
	// Removed from the keyboard: focus moves on to the next Remove.
	await page.getByRole('button', { name: 'Remove extra.txt' }).focus();
	await page.keyboard.press('Enter');
	await expect(chips(page).getByRole('listitem')).toHaveCount(2);
	await expect(page.getByRole('button', { name: 'Remove notes.md' })).toBeFocused();

	const sent = await send(page, 'What is in the picture?');
	await waitForAnswer(page);
	await expect(chips(page)).toHaveCount(0);
	const user = (mock.requests.at(-1)!.body.messages as Array<{ role: string; content: unknown }>).findLast((m) => m.role === 'user')!;
	expect(user.content).toEqual([
		{ type: 'text', text: 'What is in the picture?' },
		{ type: 'text', text: `File: notes.md\n\n${NOTES.buffer.toString('utf8')}` },
		{ type: 'image_url', image_url: { url: `data:image/png;base64,${PHOTO_BASE64}` } }
	]);

	// The transcript shows the image from its stored bytes, and the file, which opens to its text.
	const image = sent.getByRole('img', { name: 'photo.png (30 × 20)' });
	await expect(image).toBeVisible();
	await expect.poll(() => image.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth === 30)).toBe(true);
	await expect(sent.getByRole('button', { name: 'photo.png (30 × 20), open full size' })).toBeVisible();
	await sent.getByText('notes.md').click();
	await expect(sent.getByText('Kyoto in spring, 3 days.')).toBeVisible();

	// What the model received names the image; its bytes are left out of the shown body.
	const answer = await waitForAnswer(page);
	await answer.getByRole('button', { name: 'What the model received' }).click();
	const received = page.getByRole('dialog', { name: 'What the model received' });
	await expect(received.getByRole('list', { name: 'Attached' })).toContainText(`Attached: photo.png, image/png, 30 × 20, ${PHOTO.buffer.length} bytes`);
	// A thumbnail of it, drawn from the stored image.
	await expect(received.getByRole('img', { name: 'photo.png (30 × 20)' })).toBeVisible();
	await expect(received.getByLabel('Request body')).toContainText('of image data, left out here; Copy as curl has it');
	await expect(received.getByLabel('Request body')).not.toContainText(PHOTO_BASE64);
	await expect(received.getByRole('note')).toHaveCount(0);
	// Copy as curl carries the whole request, the image's bytes included.
	await received.getByRole('button', { name: 'Copy as curl' }).click();
	await expect(received.getByRole('status')).toContainText('curl command copied');
	await expect.poll(() => page.evaluate(() => navigator.clipboard.readText())).toContain(`data:image/png;base64,${PHOTO_BASE64}`);
});

test('dropped on the chat, the image goes to the Responses API as input_image; pasted, to Anthropic as a base64 image block', async ({ page }) => {
	await openApp(page);
	await chooseModel(page, await addProvider(page, 'OpenAI', `${mock.url}/v1`, 'gpt-5.6'));
	await attachByDrop(page, PHOTO);
	await expect(chip(page, 'photo.png')).toBeVisible();
	await send(page, 'Describe it.');
	await waitForAnswer(page);
	const input = mock.requests.at(-1)!.body.input as Array<{ role?: string; content: unknown }>;
	expect(input.findLast((item) => item.role === 'user')!.content).toEqual([
		{ type: 'input_text', text: 'Describe it.' },
		{ type: 'input_image', image_url: `data:image/png;base64,${PHOTO_BASE64}` }
	]);

	await chooseModel(page, await addProvider(page, 'Anthropic', mock.url, 'claude-opus-4-6'));
	await attachByPaste(page, PHOTO);
	await expect(chip(page, 'photo.png')).toBeVisible();
	// The paste attached the image; it did not type its name into the box.
	await expect(page.getByRole('textbox', { name: 'Message' })).toHaveValue('');
	// Text copied with a picture of itself (cells of a spreadsheet) pastes as text, attaching nothing.
	const cells = await transferOf(page, { ...PHOTO, name: 'cells.png' });
	await page.getByRole('textbox', { name: 'Message' }).evaluate((box, data) => {
		(data as DataTransfer).setData('text/plain', 'A1\tB1');
		const event = new ClipboardEvent('paste', { clipboardData: data as DataTransfer, bubbles: true, cancelable: true });
		box.dispatchEvent(event);
		box.dataset.pasteTaken = String(event.defaultPrevented);
	}, cells);
	await expect(page.getByRole('textbox', { name: 'Message' })).toHaveAttribute('data-paste-taken', 'false');
	await expect(chips(page).getByRole('listitem')).toHaveCount(1);
	await send(page, 'And now?');
	await waitForAnswer(page);
	const messages = mock.requests.at(-1)!.body.messages as Array<{ role: string; content: unknown }>;
	expect(messages.at(-1)!.content).toEqual([
		{ type: 'text', text: 'And now?' },
		{ type: 'image', source: { type: 'base64', media_type: 'image/png', data: PHOTO_BASE64 } }
	]);
});

test('a photo larger than providers take is scaled down in the background before it is kept and sent, its shape kept', async ({ page }) => {
	await openApp(page);
	await chooseModel(page, await addProvider(page, 'Anthropic', mock.url, 'claude-opus-4-6'));
	// 6 megapixels: more than Anthropic takes (a long edge of 1568, about 1.15 megapixels).
	const big = { name: 'big.png', mimeType: 'image/png', buffer: png(3000, 2000) };
	await attachByButton(page, [big]);
	await expect(chip(page, 'big.png')).toBeVisible();
	await send(page, 'How large is it?');
	await waitForAnswer(page);
	const messages = mock.requests.at(-1)!.body.messages as Array<{ role: string; content: Array<{ type: string; source?: { media_type: string; data: string } }> }>;
	const image = messages.at(-1)!.content.find((part) => part.type === 'image')!;
	expect(image.source!.media_type).toBe('image/png');
	const bytes = Buffer.from(image.source!.data, 'base64');
	// A PNG's header holds its width and height.
	const [width, height] = [bytes.readUInt32BE(16), bytes.readUInt32BE(20)];
	expect(bytes.length).toBeLessThanOrEqual(5 * 1024 * 1024);
	expect(Math.max(width, height)).toBeLessThanOrEqual(1568);
	expect(width * height).toBeLessThanOrEqual(1_150_000);
	expect(width / height).toBeCloseTo(1.5, 1);
	await expect(transcript(page).getByRole('img', { name: `big.png (${width} × ${height})` })).toBeVisible();
});

/** The total /usage prints once the answer to `text`, sent with `files`, is in; no usage is reported, so the estimate is the app's own count. */
async function usageAfter(page: Page, text: string, files: Array<{ name: string; mimeType: string; buffer: Buffer }>): Promise<number> {
	if (files.length) await attachByButton(page, files);
	mock.script([{ type: 'text', text: 'Seen.', usage: { input_tokens: 0, output_tokens: 1 } }]);
	await send(page, text);
	await waitForAnswer(page);
	return numberIn(await runCommand(page, '/usage'), /Estimated context: ([\d,]+) of/);
}

test('an attached image raises the estimate by its provider’s published count: 1000 × 1000 is 1,334 tokens for Anthropic', async ({ page }) => {
	await openApp(page);
	await chooseModel(page, await addProvider(page, 'Anthropic', mock.url, 'claude-opus-4-6'));
	const withImage = await usageAfter(page, 'Look.', [{ name: 'square.png', mimeType: 'image/png', buffer: png(1000, 1000) }]);
	await newSession(page);
	const without = await usageAfter(page, 'Look.', []);
	// Anthropic: width × height / 750, rounded up.
	expect(withImage - without).toBe(Math.ceil((1000 * 1000) / 750));
});

test('a model that cannot see asks first: Cancel keeps the message and its attachments, "Send without images" sends the rest', async ({ page }) => {
	await openApp(page);
	// The offline model reads text only: images alone would make an empty message, which it says.
	await attachByButton(page, [PHOTO]);
	await page.getByRole('button', { name: 'Send' }).click();
	await expect(page.getByRole('alert').filter({ hasText: 'reads text only, and without its images this message is empty' })).toBeVisible();
	await expect(chips(page).getByRole('listitem')).toHaveCount(1);
	await page.getByRole('button', { name: 'Remove photo.png' }).click();
	await attachByButton(page, [PHOTO, NOTES]);
	await page.getByRole('textbox', { name: 'Message' }).fill('echo: hello');
	await page.getByRole('button', { name: 'Send' }).click();
	const dialog = page.getByRole('dialog', { name: 'This model cannot see images' });
	await expect(dialog).toContainText('reads text only');
	await dialog.getByRole('button', { name: 'Cancel' }).click();
	await expect(dialog).toHaveCount(0);
	await expect(page.getByRole('textbox', { name: 'Message' })).toHaveValue('echo: hello');
	await expect(chips(page).getByRole('listitem')).toHaveCount(2);
	await expect(userMessages(page)).toHaveCount(0);

	await page.getByRole('textbox', { name: 'Message' }).press('Enter');
	await dialog.getByRole('button', { name: 'Send without images' }).click();
	const answer = await waitForAnswer(page);
	await expect(answer).toContainText('hello');
	const sent = userMessages(page).last();
	await expect(sent.getByRole('img')).toHaveCount(0);
	await expect(sent.getByText('notes.md')).toBeVisible();
	await expect(chips(page)).toHaveCount(0);
	await expect
		.poll(async () => (await readRows(page, 'palimpsest-default', 'messages')).filter((r) => r.role === 'user').map((r) => r.attachments))
		.toEqual([[{ type: 'file', id: expect.any(String), name: 'notes.md', mimeType: 'text/markdown', size: NOTES.buffer.length }]]);
});

test('a provider marked Text only in Settings is asked about too, and its request carries no image', async ({ page }) => {
	await openApp(page);
	await navigate(page, 'Settings');
	await page.getByRole('button', { name: 'Add provider' }).click();
	await page.getByRole('combobox', { name: 'Preset' }).selectOption({ label: 'Custom (OpenAI-compatible)' });
	await page.getByRole('textbox', { name: 'Base URL' }).fill(`${mock.url}/v1`);
	await page.getByRole('textbox', { name: 'Model', exact: true }).fill('text-model');
	await page.getByRole('dialog', { name: 'Add provider' }).getByRole('button', { name: 'More options' }).click();
	await page.getByRole('checkbox', { name: 'Text only' }).check();
	await page.getByRole('button', { name: 'Save' }).click();
	await expect(page.getByRole('status', { name: 'Provider status' })).toContainText('Saved Custom (OpenAI-compatible) · text-model');
	await chooseModel(page, `text-model · Custom (OpenAI-compatible) · ${new URL(mock.url).host}`);
	await attachByButton(page, [PHOTO]);
	await page.getByRole('textbox', { name: 'Message' }).fill('Only words.');
	await page.getByRole('textbox', { name: 'Message' }).press('Enter');
	await page.getByRole('dialog', { name: 'This model cannot see images' }).getByRole('button', { name: 'Send without images' }).click();
	await waitForAnswer(page);
	const user = (mock.requests.at(-1)!.body.messages as Array<{ role: string; content: unknown }>).findLast((m) => m.role === 'user')!;
	expect(user.content).toBe('Only words.');

	// An image already in the conversation (a model that sees got it) is left out for this one too.
	await chooseModel(page, await addCustomProvider(page, `${mock.url}/v1`, 'vision-model'));
	await attachByButton(page, [PHOTO]);
	await send(page, 'Seen?');
	await waitForAnswer(page);
	expect(JSON.stringify(mock.requests.at(-1)!.body.messages)).toContain(PHOTO_BASE64);
	await chooseModel(page, `text-model · Custom (OpenAI-compatible) · ${new URL(mock.url).host}`);
	await send(page, 'And now?');
	const answer = await waitForAnswer(page);
	expect(JSON.stringify(mock.requests.at(-1)!.body.messages)).not.toContain('image_url');
	// What the model received is that request exactly, without the image.
	await answer.getByRole('button', { name: 'What the model received' }).click();
	const received = page.getByRole('dialog', { name: 'What the model received' });
	await expect(received.getByLabel('Request body')).toContainText('And now?');
	await expect(received.getByLabel('Request body')).not.toContainText('image_url');
	await expect(received.getByRole('note')).toHaveCount(0);
});

test('limits are said at the chip: a file that is not text or an image, a text file over 1 MB, more than 10 files', async ({ page }) => {
	await openApp(page);
	await attachByButton(page, [
		{ name: 'archive.zip', mimeType: 'application/zip', buffer: Buffer.from([0x50, 0x4b, 3, 4, 0, 0]) },
		{ name: 'big.txt', mimeType: 'text/plain', buffer: Buffer.alloc(1024 * 1024 + 1, 'a') },
		{ name: 'fake.png', mimeType: 'image/png', buffer: Buffer.from('<html></html>') },
		{ name: 'latin1.txt', mimeType: 'text/plain', buffer: Buffer.from([0x63, 0x61, 0x66, 0xe9]) }
	]);
	await expect(chip(page, 'archive.zip').getByRole('alert')).toHaveText('Not attached: Only images (PNG, JPEG, GIF, WebP), text files (text, Markdown, code, CSV, JSON) and PDFs can be attached.');
	await expect(chip(page, 'big.txt').getByRole('alert')).toHaveText('Not attached: Too large: a text file may be at most 1 MB.');
	await expect(chip(page, 'fake.png').getByRole('alert')).toContainText('Not a PNG, JPEG, GIF or WebP image');
	await expect(chip(page, 'latin1.txt').getByRole('alert')).toContainText('Not UTF-8 text');
	// Refused files send nothing: Send waits for something to send.
	await expect(page.getByRole('button', { name: 'Send' })).toBeDisabled();
	for (const name of ['archive.zip', 'big.txt', 'fake.png', 'latin1.txt']) await page.getByRole('button', { name: `Remove ${name}` }).click();
	await expect(chips(page)).toHaveCount(0);

	await attachByButton(page, Array.from({ length: 11 }, (_, i) => ({ name: `part-${i + 1}.txt`, mimeType: 'text/plain', buffer: Buffer.from(`part ${i + 1}`) })));
	await expect(chip(page, 'part-11.txt').getByRole('alert')).toHaveText('Not attached: A message takes at most 10 attachments.');
	await expect(chips(page).getByRole('alert')).toHaveCount(1);
	await expect(page.getByRole('button', { name: 'Send' })).toBeEnabled();
});

test('export → import carries an attached image byte for byte; deleting the session deletes its Blobs', async ({ page }) => {
	const dir = await mkdtemp(join(tmpdir(), 'palimpsest-attach-'));
	try {
		await openApp(page);
		await chooseModel(page, await addCustomProvider(page, `${mock.url}/v1`, 'mock-model'));
		await attachByButton(page, [PHOTO, NOTES]);
		await send(page, 'echo: keep these');
		await waitForAnswer(page);
		await expect.poll(() => readRows(page, 'palimpsest-default', 'blobs')).toHaveLength(2);
		const [row] = (await readRows(page, 'palimpsest-default', 'messages')).filter((r) => r.role === 'user') as Array<{ session_id: string; attachments: Array<{ id: string; name: string }> }>;
		const photoId = row.attachments.find((a) => a.name === 'photo.png')!.id;
		await expect.poll(() => storedBase64(page, 'palimpsest-default', row.session_id, photoId)).toBe(PHOTO_BASE64);

		await navigate(page, 'Settings');
		const download = page.waitForEvent('download');
		await page.getByRole('button', { name: 'Export', exact: true }).click();
		const file = await download;
		const path = join(dir, file.suggestedFilename());
		await file.saveAs(path);
		expect(await readFile(path, 'utf8')).toContain(PHOTO_BASE64);

		await createProfile(page, 'Restored');
		await navigate(page, 'Settings');
		const chooser = page.waitForEvent('filechooser');
		await page.getByRole('button', { name: 'Import', exact: true }).click();
		await (await chooser).setFiles(path);
		await expect(page.getByRole('status', { name: 'Transfer status' })).toHaveText('Imported 1 session (2 messages).');
		await expect.poll(() => storedBase64(page, 'palimpsest-restored', row.session_id, photoId)).toBe(PHOTO_BASE64);
		await sidebar(page).getByRole('link', { name: 'echo: keep these' }).click();
		await expect(userMessages(page).getByRole('img', { name: 'photo.png (30 × 20)' })).toBeVisible();

		// Deleting the session takes its Blobs with it.
		await expect.poll(() => readRows(page, 'palimpsest-restored', 'blobs')).toHaveLength(2);
		await sessionAction(page, sidebar(page).getByRole('listitem').filter({ has: page.getByRole('link', { name: 'echo: keep these', exact: true }) }), 'Delete');
		await page.getByRole('dialog', { name: 'Delete this session?' }).getByRole('button', { name: 'Delete' }).click();
		await expect.poll(async () => (await readRows(page, 'palimpsest-restored', 'blobs')).length).toBe(0);
	} finally {
		await rm(dir, { recursive: true, force: true });
	}
});

test('plugins see what was attached in conversation_history by type, name and size, never the bytes', async ({ page }) => {
	await openApp(page);
	await addPlugin(page, `${origins.cors}/history-watch.js`, 'History watch');
	await navigate(page, 'Chat');
	await attachByButton(page, [NOTES]);
	await send(page, 'echo: read my notes');
	await waitForAnswer(page);
	await send(page, 'echo: and now');
	await waitForAnswer(page);
	await expect(await runCommand(page, '/history-attachments')).toContainText(`[{"type":"file","name":"notes.md","size":${NOTES.buffer.length}}]`);
});
