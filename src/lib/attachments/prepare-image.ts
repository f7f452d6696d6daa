// Readies an image for a provider, in the attachment worker (off the page's thread): decodes it
// (PNG, JPEG, WebP, or a GIF's first frame) and, when it is larger than the provider takes in
// pixels or bytes, draws it smaller on an OffscreenCanvas. A photo becomes a JPEG; an image that
// may be transparent (PNG, GIF, WebP with alpha) stays lossless PNG. A photo whose EXIF says to
// turn it is drawn turned, so every provider sees it upright.
import { AttachmentError, formatBytes, nameOf } from './attachment-error';
import { scaledSize, type ImageLimits, type Size } from './image-limits';
import { jpegOrientation } from './jpeg-orientation';
import { sniffImage, type ImageType } from './sniff-image';

export interface PreparedImage {
	/** The image to store and send: the original when it fitted, else the re-encoded one. */
	blob: Blob;
	mimeType: ImageType;
	/** The size of `blob`, in pixels (as displayed: a photo's orientation applied). */
	width: number;
	height: number;
	/** Whether the image was made smaller than the original. */
	scaled: boolean;
	/** The original's size, in pixels. */
	originalWidth: number;
	originalHeight: number;
}

const JPEG_QUALITY = 0.85;
/** Re-encodings tried, each smaller, before an image that stays over the byte limit is refused. */
const BYTE_ATTEMPTS = 5;

async function decode(blob: Blob): Promise<ImageBitmap> {
	try {
		return await createImageBitmap(blob, { imageOrientation: 'from-image' });
	} catch {
		throw new AttachmentError(`${nameOf(blob)} could not be read as an image; it may be damaged or cut short.`);
	}
}

async function encode(bitmap: ImageBitmap, size: Size, type: ImageType, quality: number): Promise<Blob> {
	const canvas = new OffscreenCanvas(size.width, size.height);
	const context = canvas.getContext('2d', { alpha: type === 'image/png' });
	if (!context) throw new AttachmentError('This browser cannot draw images in the background.');
	context.imageSmoothingEnabled = true;
	context.imageSmoothingQuality = 'high';
	context.drawImage(bitmap, 0, 0, size.width, size.height);
	return canvas.convertToBlob({ type, quality });
}

/**
 * `blob` as the provider with `limits` takes it. An AttachmentError (its message for the user)
 * when the bytes are no image, cannot be decoded, or stay over the byte limit however small.
 */
export async function prepareImage(blob: Blob, limits: ImageLimits): Promise<PreparedImage> {
	const { type, alpha } = await sniffImage(blob);
	const bitmap = await decode(blob);
	try {
		const original = { width: bitmap.width, height: bitmap.height };
		let size = scaledSize(original.width, original.height, limits);
		const fits = size.width === original.width && size.height === original.height;
		// A GIF is sent as its first frame, never animated, and a turned photo upright; anything
		// else that fits goes as it came.
		const upright = type !== 'image/jpeg' || (await jpegOrientation(blob)) === 1;
		if (fits && upright && type !== 'image/gif' && blob.size <= limits.maxBytes) {
			const kept = blob.type === type ? blob : new Blob([blob], { type });
			return { blob: kept, mimeType: type, ...original, scaled: false, originalWidth: original.width, originalHeight: original.height };
		}
		const output: ImageType = alpha ? 'image/png' : 'image/jpeg';
		for (let attempt = 1; ; attempt++) {
			const encoded = await encode(bitmap, size, output, JPEG_QUALITY);
			if (encoded.size <= limits.maxBytes) {
				const scaled = size.width !== original.width || size.height !== original.height;
				return { blob: encoded, mimeType: output, ...size, scaled, originalWidth: original.width, originalHeight: original.height };
			}
			if (attempt === BYTE_ATTEMPTS) break;
			// Bytes grow with pixels: shrink by the square root of the excess, and a margin.
			const factor = Math.sqrt(limits.maxBytes / encoded.size) * 0.9;
			size = { width: Math.max(1, Math.floor(size.width * factor)), height: Math.max(1, Math.floor(size.height * factor)) };
		}
		throw new AttachmentError(`${nameOf(blob)} is still larger than ${formatBytes(limits.maxBytes)} after scaling it down.`);
	} finally {
		bitmap.close();
	}
}
