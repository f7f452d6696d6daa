// What the attachment worker does for the page: ready an image for a provider, read a PDF's
// text. Served over comlink by attachment.worker.ts.
import { extractPdfText, type PdfText, type PdfTextLimits } from './extract-pdf-text';
import type { ImageLimits } from './image-limits';
import { prepareImage, type PreparedImage } from './prepare-image';

export interface AttachmentApi {
	prepareImage(blob: Blob, limits: ImageLimits): Promise<PreparedImage>;
	extractPdfText(blob: Blob, limits?: Partial<PdfTextLimits>): Promise<PdfText>;
}

export function createAttachmentApi(): AttachmentApi {
	return {
		prepareImage: (blob, limits) => prepareImage(blob, limits),
		extractPdfText: (blob, limits) => extractPdfText(blob, limits)
	};
}
