// A tool's result made ready to keep, in the tool-server worker: each image's base64 is decoded
// into a Blob under a fresh id, and the part keeps only that id, its type, size and dimensions.
// An image must pass the one check of every file's bytes as what it claims to be, and decode: a
// file that is not one would show broken and make every later request of the session fail at a
// provider, so it becomes a note instead.
import { decodeBase64 } from '../hooks/image-bytes';
import { checkBytes } from '../attachments/check-bytes';
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
		// The one check every file's bytes pass: its type is the one its signature gives.
		const checked = checkBytes(bytes, { kind: 'image', type: part.mimeType });
		const data = checked.ok ? new Blob([bytes], { type: checked.type }) : null;
		const size = !data ? null : measure ? await measure(data).catch(() => null) : undefined;
		if (!data || size === null) {
			parts.push({ type: 'note', text: `An image (${part.mimeType}, ${formatBytes(bytes.length)}) was left out: its bytes are not an image of that type.` });
			continue;
		}
		const id = crypto.randomUUID();
		images.push({ id, type: data.type, data });
		parts.push({ type: 'image', id, mimeType: data.type, size: data.size, ...size });
	}
	return { isError: view.isError, forModel: view.forModel, parts, images };
}
