// What an image file is, from its first bytes rather than its name or the type the browser
// guessed from the name: a file named .png that holds no image is refused before decoding.
import { IMAGE_LABELS, sniffImageType } from './check-bytes';
import { AttachmentError, nameOf } from './attachment-error';

export type ImageType = 'image/png' | 'image/jpeg' | 'image/gif' | 'image/webp';

/** The bytes read: enough for every signature and for a WebP's alpha flag. */
const HEAD_BYTES = 32;

export interface SniffedImage {
	type: ImageType;
	/** Whether the image may have transparent pixels (then it stays PNG when re-encoded). */
	alpha: boolean;
}

/** A WebP's alpha flag: in the VP8X header's flags, or the lossless (VP8L) header's alpha bit; a plain lossy VP8 has none. */
function webpHasAlpha(head: Uint8Array): boolean {
	const chunk = String.fromCharCode(...head.subarray(12, 16));
	if (chunk === 'VP8X') return (head[20] & 0x10) !== 0;
	if (chunk === 'VP8L') return (head[24] & 0x10) !== 0;
	return false;
}

/**
 * The image type of `blob` by its signature, whatever its name says (a JPEG saved as .png is a
 * JPEG); an AttachmentError when its bytes are no PNG, JPEG, WebP or GIF.
 */
export async function sniffImage(blob: Blob): Promise<SniffedImage> {
	const head = new Uint8Array(await blob.slice(0, HEAD_BYTES).arrayBuffer());
	const type = sniffImageType(head) as ImageType | undefined;
	if (!type) {
		const claimed = IMAGE_LABELS[blob.type];
		throw new AttachmentError(
			claimed
				? `${nameOf(blob)} is not a ${claimed} image: its contents are not a picture. Only PNG, JPEG, WebP and GIF images can be attached.`
				: `${nameOf(blob)} is not a PNG, JPEG, WebP or GIF image.`
		);
	}
	return { type, alpha: type === 'image/png' || type === 'image/gif' || (type === 'image/webp' && webpHasAlpha(head)) };
}
