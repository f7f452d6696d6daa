// A tool's result made ready to keep, in the tool-server worker: each image's base64 is decoded
// into a Blob under a fresh id, and the part keeps only that id, its type, size and dimensions.
// An image must decode as what it claims to be: a file that is not one would show broken and
// make every later request of the session fail at a provider, so it becomes a note instead.
import { decodeBase64, looksLikeImage } from '../hooks/image-bytes';
import { formatBytes } from '../hooks/plain-data';
import type { CallResult, ImageBytes, KeptPart, ToolResultView } from './types';

/** An image's dimensions, or a rejection when its bytes are no image of that type. */
export type MeasureImage = (image: Blob) => Promise<{ width: number; height: number }>;

/** Where the browser can decode images (workers included), it does; elsewhere the size is unknown. */
export const measureImage: MeasureImage | null =
	typeof createImageBitmap === 'function'
		? async (image) => {
				const bitmap = await createImageBitmap(image);
				const size = { width: bitmap.width, height: bitmap.height };
				bitmap.close();
				return size;
			}
		: null;

export async function keepImages(view: ToolResultView, measure: MeasureImage | null = measureImage): Promise<CallResult> {
	const images: ImageBytes[] = [];
	const parts: KeptPart[] = [];
	for (const part of view.parts) {
		if (part.type !== 'image') {
			parts.push(part);
			continue;
		}
		const bytes = decodeBase64(part.data);
		const data = new Blob([bytes], { type: part.mimeType });
		const size = !looksLikeImage(part.mimeType, bytes) ? null : measure ? await measure(data).catch(() => null) : undefined;
		if (size === null) {
			parts.push({ type: 'note', text: `An image (${part.mimeType}, ${formatBytes(data.size)}) was left out: its bytes are not an image of that type.` });
			continue;
		}
		const id = crypto.randomUUID();
		images.push({ id, type: part.mimeType, data });
		parts.push({ type: 'image', id, mimeType: part.mimeType, size: data.size, ...size });
	}
	return { isError: view.isError, forModel: view.forModel, parts, images };
}
