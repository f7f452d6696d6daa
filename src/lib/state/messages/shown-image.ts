// An image a message shows, made ready to draw: its kept bytes pass the one check of every file's
// bytes as the image the message says it is, and the Blob drawn takes the type the check gives,
// never the type it was kept with (an earlier version may have kept a page under an image's id).
// Loaded with the transcript's images, not with the app.
import { checkBlob, typedAs } from '../../attachments/check-bytes';
import type { ImageRef } from '../../db/schema';

/** The Blob to draw; 'gone' when no bytes are kept; 'not-an-image' when the bytes kept are no image of the type its message says. */
export type ShownImage = Blob | 'gone' | 'not-an-image';

export async function readShownImage(stored: Blob | null, image: Pick<ImageRef, 'mimeType'>): Promise<ShownImage> {
	if (!stored) return 'gone';
	const checked = await checkBlob(stored, { kind: 'image', type: image.mimeType });
	return checked.ok ? typedAs(stored, checked.type) : 'not-an-image';
}
