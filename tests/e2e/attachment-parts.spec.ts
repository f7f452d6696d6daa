// Images and PDFs readied for a provider in the attachment worker, in real Chromium under the
// app's Content-Security-Policy: the attachment modules run in a bare page built from
// bench/attach-harness (the worker a real module Worker, PDF.js loaded in it on the first PDF).
// The harness's window.attach, typed.
import type {} from '../../bench/attach-harness/main';
import { buildAttachHarness } from '../../bench/build-attach-harness.mjs';
import { serve } from '../../src/server/serve.mjs';
import { expect, test, type Page } from './test-base';

const harness = { url: '', close: async () => {} };

test.beforeAll(async () => {
	test.setTimeout(120_000);
	const built = await buildAttachHarness();
	const server = await serve({ root: built.dir, port: 0, secure: true });
	Object.assign(harness, {
		url: server.url,
		close: async () => {
			await server.close();
			await built.remove();
		}
	});
});

test.afterAll(() => harness.close());

/** Opens the harness; returns the names of the scripts requested so far, by the page or its workers. */
async function openHarness(page: Page): Promise<() => string[]> {
	const scripts: string[] = [];
	page.context().on('request', (request) => {
		if (request.url().endsWith('.js')) scripts.push(new URL(request.url()).pathname.split('/').pop() ?? '');
	});
	await page.goto(harness.url + '/');
	await page.waitForFunction(() => 'attach' in window);
	return () => [...scripts];
}

const bytesOf = (text: string) => [...text].map((char) => char.charCodeAt(0));

/** The value of an outcome the test needs to have succeeded; its message as the failure otherwise. */
function succeeded<T>(outcome: { ok: true; value: T } | { ok: false; message: string }): T {
	if (!outcome.ok) throw new Error(outcome.message);
	return outcome.value;
}

test('a 12-megapixel photo is scaled within each provider’s limits, keeping its shape, and a small one is sent unchanged', async ({ page }) => {
	const scripts = await openHarness(page);
	// Opening the page starts no attachment worker and loads no PDF reader.
	expect(scripts().filter((name) => /attachment\.worker|pdf/.test(name))).toEqual([]);

	const photo = succeeded(await page.evaluate(() => window.attach.prepare({ width: 4000, height: 3000, type: 'image/jpeg', provider: 'anthropic', name: 'beach.jpg' })));
	expect(photo).toMatchObject({ scaled: true, mimeType: 'image/jpeg', blobType: 'image/jpeg', originalWidth: 4000, originalHeight: 3000 });
	expect(photo.width).toBeLessThanOrEqual(1568);
	expect(photo.width * photo.height).toBeLessThanOrEqual(1_150_000);
	expect(photo.width * photo.height).toBeGreaterThan(1_100_000);
	expect(Math.abs(photo.width / photo.height - 4 / 3)).toBeLessThan(0.01);
	expect(photo.bytes).toBeLessThanOrEqual(5 * 1024 * 1024);
	expect(photo.bytes).toBeLessThan(photo.originalBytes);
	// What the worker says is what the bytes decode to.
	expect(photo.decoded).toMatchObject({ width: photo.width, height: photo.height });
	await expect.poll(() => scripts().some((name) => name.startsWith('attachment.worker'))).toBe(true);
	// Readying an image loads no PDF reader.
	expect(scripts().filter((name) => name.startsWith('pdf'))).toEqual([]);

	const openai = succeeded(await page.evaluate(() => window.attach.prepare({ width: 3000, height: 4000, type: 'image/png', provider: 'openai', name: 'portrait.png' })));
	// Fitted into 2048 × 2048, then the short side to 768; a PNG stays PNG.
	expect(openai).toMatchObject({ scaled: true, width: 768, height: 1024, mimeType: 'image/png', decoded: { width: 768, height: 1024 } });

	const small = succeeded(await page.evaluate(() => window.attach.prepare({ width: 800, height: 600, type: 'image/jpeg', provider: 'anthropic', name: 'small.jpg' })));
	expect(small).toMatchObject({ scaled: false, unchanged: true, width: 800, height: 600, mimeType: 'image/jpeg' });
});

test('transparent images stay PNG, a GIF is sent as its first frame, and a WebP photo becomes JPEG when scaled', async ({ page }) => {
	await openHarness(page);
	const webp = succeeded(await page.evaluate(() => window.attach.prepare({ width: 2400, height: 1600, type: 'image/webp', provider: 'anthropic', name: 'photo.webp' })));
	expect(webp).toMatchObject({ scaled: true, mimeType: 'image/jpeg' });

	const clear = succeeded(await page.evaluate(() => window.attach.prepare({ width: 2400, height: 1600, type: 'image/webp', provider: 'anthropic', name: 'logo.webp', transparent: true })));
	expect(clear).toMatchObject({ scaled: true, mimeType: 'image/png', decoded: { opaque: false } });

	// Chromium cannot encode GIF, so this one is made as PNG bytes and named .gif: it is read by its bytes.
	const png = succeeded(await page.evaluate(() => window.attach.prepare({ width: 300, height: 200, type: 'image/png', provider: 'openai', name: 'drawing.gif' })));
	expect(png).toMatchObject({ scaled: false, unchanged: true, mimeType: 'image/png' });

	const gif = succeeded(await page.evaluate(() => window.attach.prepareGif()));
	// Re-encoded as a still PNG of its first (red) frame.
	expect(gif).toEqual({ mimeType: 'image/png', width: 2, height: 1, scaled: false, pixel: [255, 0, 0, 255] });
});

test('a file named .png that is no image is refused with a message that names it', async ({ page }) => {
	await openHarness(page);
	const fake = await page.evaluate((bytes) => window.attach.prepareBytes(bytes, 'holiday.png', 'image/png', 'anthropic'), bytesOf('not a picture at all'));
	expect(fake).toEqual({
		ok: false,
		name: 'AttachmentError',
		isAttachmentError: true,
		message: '“holiday.png” is not a PNG image: its contents are not a picture. Only PNG, JPEG, WebP and GIF images can be attached.'
	});
	// A damaged image (a PNG signature, then nothing a decoder can read) is refused too.
	const damaged = await page.evaluate((bytes) => window.attach.prepareBytes(bytes, 'cut.png', 'image/png', 'openai'), bytesOf('\x89PNG\r\n\x1a\n and then rubbish'));
	expect(damaged).toMatchObject({ ok: false, name: 'AttachmentError', message: '“cut.png” could not be read as an image; it may be damaged or cut short.' });
});

test('a PDF’s text is read in the worker, PDF.js loading only then; a password-protected one is refused', async ({ page }) => {
	const scripts = await openHarness(page);
	expect(scripts().filter((name) => name.startsWith('pdf'))).toEqual([]);
	const read = await page.evaluate(() => window.attach.pdfText([['Invoice 42', 'Total: 12 EUR'], ['Thank you']]));
	expect(read).toEqual({ ok: true, value: { text: 'Invoice 42\nTotal: 12 EUR\n\nThank you', pages: 2, totalPages: 2, truncated: false } });
	await expect.poll(() => scripts().filter((name) => name.startsWith('pdf'))).toHaveLength(2);

	const locked = await page.evaluate(() => window.attach.pdfText([['Secret']], { encrypted: true, name: 'payslip.pdf' }));
	expect(locked).toMatchObject({ ok: false, isAttachmentError: true, message: '“payslip.pdf” is protected by a password. Remove the password and attach it again.' });
});

test('a worker stopped while it reads fails that attachment with a message, and the next one is read by a new worker', async ({ page }) => {
	await openHarness(page);
	expect(await page.evaluate(() => window.attach.stopDuring())).toEqual({
		stopped: { ok: false, name: 'AttachmentError', isAttachmentError: true, message: 'The attachment was not read: reading was stopped.' },
		again: { ok: true, value: { width: 1238, height: 928 } }
	});
});

test('a photo whose EXIF says to turn it is sent turned, upright, even when it needs no scaling', async ({ page }) => {
	await openHarness(page);
	const turned = succeeded(await page.evaluate(() => window.attach.prepareTurned()));
	expect(turned).toMatchObject({ unchanged: false, scaled: false, width: 600, height: 800, mimeType: 'image/jpeg', decoded: { width: 600, height: 800 } });
});

test('an image within the pixel bounds but over the byte limit is re-encoded smaller until it fits, or refused', async ({ page }) => {
	await openHarness(page);
	const limits = { maxLongEdge: 4000, maxBytes: 150_000 };
	const heavy = succeeded(await page.evaluate((limits) => window.attach.prepare({ width: 2000, height: 1500, type: 'image/png', provider: limits, name: 'heavy.png' }), limits));
	expect(heavy.originalBytes).toBeGreaterThan(limits.maxBytes);
	expect(heavy.bytes).toBeLessThanOrEqual(limits.maxBytes);
	expect(heavy).toMatchObject({ scaled: true, mimeType: 'image/png' });
	expect(heavy.decoded).toMatchObject({ width: heavy.width, height: heavy.height });

	const impossible = await page.evaluate(() => window.attach.prepare({ width: 600, height: 400, type: 'image/png', provider: { maxBytes: 10 }, name: 'tiny-limit.png' }));
	expect(impossible).toMatchObject({ ok: false, isAttachmentError: true, message: '“tiny-limit.png” is still larger than 1 KB after scaling it down.' });
});
