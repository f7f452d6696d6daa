// The attachment modules in a bare page, under the app's own Content-Security-Policy and
// Trusted Types policy: the attachment worker is a real module Worker and PDF.js loads in it
// as in the app. bench/attach.mjs and the browser tests call window.attach through Playwright;
// each function returns plain figures, since Blobs cannot leave the page.
import { extractPdfTextInWorker, prepareImageInWorker, stopAttachmentWorker } from '../../src/lib/attachments/attachment-client';
import { ANTHROPIC_IMAGE_LIMITS, OPENAI_IMAGE_LIMITS, type ImageLimits } from '../../src/lib/attachments/image-limits';
import { makeTestPdf } from '../../src/lib/attachments/test-pdf';
import { installTrustedTypesPolicy } from '../../src/lib/state/app/trusted-types';

installTrustedTypesPolicy();

const LIMITS: Record<string, ImageLimits> = { anthropic: ANTHROPIC_IMAGE_LIMITS, openai: OPENAI_IMAGE_LIMITS };

/** Every long task (over 50 ms) of the page's main thread, from load on. */
const longTasks: PerformanceEntry[] = [];
new PerformanceObserver((list) => longTasks.push(...list.getEntries())).observe({ type: 'longtask', buffered: true });

export type PhotoType = 'image/jpeg' | 'image/png' | 'image/webp' | 'image/gif';

/**
 * A synthetic photograph: gradients, shapes and grain, so it compresses as a photo does (a
 * flat image would make every encoder look fast). `transparent`: a clear margin around it.
 */
async function makePhoto(width: number, height: number, type: PhotoType, transparent = false): Promise<Blob> {
	const canvas = new OffscreenCanvas(width, height);
	const context = canvas.getContext('2d')!;
	const sky = context.createLinearGradient(0, 0, width, height);
	sky.addColorStop(0, '#1d4e89');
	sky.addColorStop(0.5, '#f4a259');
	sky.addColorStop(1, '#2a9d8f');
	context.fillStyle = sky;
	const inset = transparent ? Math.floor(Math.min(width, height) / 8) : 0;
	context.fillRect(inset, inset, width - 2 * inset, height - 2 * inset);
	let seed = 7;
	const random = () => ((seed = (seed * 16807) % 2147483647) / 2147483647);
	for (let i = 0; i < 400; i++) {
		context.fillStyle = `hsla(${Math.floor(random() * 360)}, 60%, ${30 + Math.floor(random() * 40)}%, 0.5)`;
		context.beginPath();
		context.arc(inset + random() * (width - 2 * inset), inset + random() * (height - 2 * inset), (random() * Math.min(width, height)) / 10, 0, Math.PI * 2);
		context.fill();
	}
	// Grain: a noise tile laid over the whole picture.
	const tile = new OffscreenCanvas(256, 256);
	const tileContext = tile.getContext('2d')!;
	const noise = tileContext.createImageData(256, 256);
	for (let i = 0; i < noise.data.length; i += 4) {
		const value = Math.floor(random() * 255);
		noise.data.set([value, value, value, 40], i);
	}
	tileContext.putImageData(noise, 0, 0);
	context.globalCompositeOperation = 'source-atop';
	context.fillStyle = context.createPattern(tile, 'repeat')!;
	context.fillRect(0, 0, width, height);
	return canvas.convertToBlob({ type, quality: 0.92 });
}

/** The pixel size of `blob` as decoded again, to check what the worker said. */
async function decodedSize(blob: Blob): Promise<{ width: number; height: number; opaque: boolean }> {
	const bitmap = await createImageBitmap(blob);
	const canvas = new OffscreenCanvas(bitmap.width, bitmap.height);
	const context = canvas.getContext('2d')!;
	context.drawImage(bitmap, 0, 0);
	const corner = context.getImageData(0, 0, 1, 1).data[3];
	bitmap.close();
	return { width: canvas.width, height: canvas.height, opaque: corner === 255 };
}

/**
 * A two-frame animated GIF of 2 × 1 pixels, written by hand (Chromium encodes no GIF): the
 * first frame red, the second blue.
 */
function twoFrameGif(): Uint8Array<ArrayBuffer> {
	const frame = (data: number[]) => [0x21, 0xf9, 4, 0, 10, 0, 0, 0, 0x2c, 0, 0, 0, 0, 2, 0, 1, 0, 0, 2, data.length, ...data, 0];
	// LZW codes (3 bits each): clear, two pixels of colour 0 (or 1), end.
	return Uint8Array.from([...'GIF89a'].map((c) => c.charCodeAt(0)).concat([2, 0, 1, 0, 0x80, 0, 0, 255, 0, 0, 0, 0, 255], frame([0x04, 0x0a]), frame([0x4c, 0x0a]), [0x3b]));
}

/** The first pixel of `blob`, decoded. */
async function firstPixel(blob: Blob): Promise<number[]> {
	const bitmap = await createImageBitmap(blob);
	const context = new OffscreenCanvas(bitmap.width, bitmap.height).getContext('2d')!;
	context.drawImage(bitmap, 0, 0);
	bitmap.close();
	return [...context.getImageData(0, 0, 1, 1).data];
}

const sameBytes = async (a: Blob, b: Blob) => {
	const [x, y] = await Promise.all([a.arrayBuffer(), b.arrayBuffer()]);
	return x.byteLength === y.byteLength && new Uint8Array(x).every((byte, i) => byte === new Uint8Array(y)[i]);
};

type Outcome<T> = { ok: true; value: T } | { ok: false; name: string; message: string; isAttachmentError: boolean };

async function outcome<T>(work: () => Promise<T>): Promise<Outcome<T>> {
	try {
		return { ok: true, value: await work() };
	} catch (error) {
		const { name, message } = error as Error;
		return { ok: false, name, message, isAttachmentError: (error as Error).constructor?.name === 'AttachmentError' };
	}
}

const attach = {
	/** A generated photo of width × height, prepared for `provider`; what came out, checked by decoding it again. */
	prepare: (spec: { width: number; height: number; type: PhotoType; provider: string | ImageLimits; name: string; transparent?: boolean }) =>
		outcome(async () => {
			const photo = new File([await makePhoto(spec.width, spec.height, spec.type, spec.transparent)], spec.name, { type: spec.type });
			const started = performance.now();
			const prepared = await prepareImageInWorker(photo, typeof spec.provider === 'string' ? LIMITS[spec.provider] : spec.provider);
			const ms = performance.now() - started;
			const { blob, ...rest } = prepared;
			return { ...rest, bytes: blob.size, blobType: blob.type, originalBytes: photo.size, unchanged: await sameBytes(blob, photo), decoded: await decodedSize(blob), ms };
		}),

	/** `bytes` saved under `name` with `type`, prepared for `provider`. */
	prepareBytes: (bytes: number[], name: string, type: string, provider: string) =>
		outcome(() => prepareImageInWorker(new File([Uint8Array.from(bytes)], name, { type }), LIMITS[provider]).then(({ width, height }) => ({ width, height }))),

	/** A small JPEG (800 × 600) whose EXIF says to turn it a quarter, prepared for OpenAI. */
	prepareTurned: () =>
		outcome(async () => {
			const jpeg = new Uint8Array(await (await makePhoto(800, 600, 'image/jpeg')).arrayBuffer());
			// An EXIF segment (big-endian TIFF, one IFD entry: orientation 6), right after the start marker.
			const tiff = [0x4d, 0x4d, 0, 42, 0, 0, 0, 8, 0, 1, 0x01, 0x12, 0, 3, 0, 0, 0, 1, 0, 6, 0, 0, 0, 0, 0, 0];
			const exif = [0x45, 0x78, 0x69, 0x66, 0, 0, ...tiff];
			const turned = Uint8Array.from([0xff, 0xd8, 0xff, 0xe1, 0, exif.length + 2, ...exif, ...jpeg.subarray(2)]);
			const file = new File([turned], 'turned.jpg', { type: 'image/jpeg' });
			const { blob, ...prepared } = await prepareImageInWorker(file, OPENAI_IMAGE_LIMITS);
			return { ...prepared, unchanged: await sameBytes(blob, file), decoded: await decodedSize(blob) };
		}),

	/** A two-frame GIF (red, then blue) prepared for Anthropic: what came out and its first pixel. */
	prepareGif: () =>
		outcome(async () => {
			const prepared = await prepareImageInWorker(new File([twoFrameGif()], 'blink.gif', { type: 'image/gif' }), ANTHROPIC_IMAGE_LIMITS);
			return { mimeType: prepared.mimeType, width: prepared.width, height: prepared.height, scaled: prepared.scaled, pixel: await firstPixel(prepared.blob) };
		}),

	/** A photo's preparation with the worker stopped meanwhile; then the same photo again, in a new worker. */
	stopDuring: async () => {
		const photo = new File([await makePhoto(4000, 3000, 'image/jpeg')], 'big.jpg', { type: 'image/jpeg' });
		const first = outcome(() => prepareImageInWorker(photo, ANTHROPIC_IMAGE_LIMITS).then(({ width, height }) => ({ width, height })));
		stopAttachmentWorker();
		return { stopped: await first, again: await outcome(() => prepareImageInWorker(photo, ANTHROPIC_IMAGE_LIMITS).then(({ width, height }) => ({ width, height }))) };
	},

	/** A hand-written PDF of `pages` (lines per page) read in the worker. */
	pdfText: (pages: string[][], options: { encrypted?: boolean; name?: string } = {}) =>
		outcome(() => extractPdfTextInWorker(new File([makeTestPdf(pages, { encrypted: options.encrypted })], options.name ?? 'document.pdf', { type: 'application/pdf' }))),

	/**
	 * One photo of width × height (made first, before the clock starts) prepared for `provider`:
	 * the time to the scaled Blob and the page's long tasks meanwhile, with the longest gap
	 * between two animation frames (what a user would see as a stall).
	 */
	measure: async (spec: { width: number; height: number; provider: string }) => {
		const photo = new File([await makePhoto(spec.width, spec.height, 'image/jpeg')], 'photo.jpg', { type: 'image/jpeg' });
		await new Promise((resolve) => setTimeout(resolve, 200));
		const before = longTasks.length;
		let frames = 0;
		let maxGap = 0;
		let last = performance.now();
		let running = true;
		const frame = (now: number) => {
			maxGap = Math.max(maxGap, now - last);
			last = now;
			frames++;
			if (running) requestAnimationFrame(frame);
		};
		requestAnimationFrame(frame);
		const started = performance.now();
		const prepared = await prepareImageInWorker(photo, LIMITS[spec.provider]);
		const ms = performance.now() - started;
		running = false;
		// A long task is reported shortly after it ends.
		await new Promise((resolve) => setTimeout(resolve, 100));
		const tasks = longTasks.slice(before).filter((task) => task.startTime < started + ms);
		return {
			ms,
			inputBytes: photo.size,
			outputBytes: prepared.blob.size,
			width: prepared.width,
			height: prepared.height,
			mimeType: prepared.mimeType,
			longTasks: tasks.map((task) => task.duration),
			frames,
			maxFrameGap: maxGap
		};
	}
};

declare global {
	interface Window {
		attach: typeof attach;
	}
}
window.attach = attach;
