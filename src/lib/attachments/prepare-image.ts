// The one step an image goes through between the file the user picked and the Blob that is
// stored and sent: decoded, to know its size in pixels (and that it is an image at all). Scaling
// an image larger than providers take belongs here, done off the main thread.

export interface PreparedImage {
	/** What is stored and sent (the file itself, unless it was re-encoded). */
	data: Blob;
	mimeType: string;
	width: number;
	height: number;
}

/** Decodes `file` (a PNG, JPEG, GIF or WebP whose signature was checked) and says its size; throws when it does not decode. */
export async function prepareImage(file: Blob, mimeType: string): Promise<PreparedImage> {
	const bitmap = await createImageBitmap(file);
	try {
		return { data: file, mimeType, width: bitmap.width, height: bitmap.height };
	} finally {
		bitmap.close();
	}
}
