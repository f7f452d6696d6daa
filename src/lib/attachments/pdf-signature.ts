// Whether bytes are a PDF, by its signature rather than its name: what the Message box, an
// import and the text reader all check before anything else reads the file.

/** Where a PDF's `%PDF-` header may start: readers accept some bytes before it. */
export const PDF_HEADER_WITHIN = 1024;

export { PDF_TYPE } from './pdf-type';
import { PDF_TYPE } from './pdf-type';

/** Whether `head` (the first PDF_HEADER_WITHIN bytes, or all of them) holds the `%PDF-` header. */
export function hasPdfSignature(head: Uint8Array): boolean {
	const end = Math.min(head.length, PDF_HEADER_WITHIN) - 5;
	for (let at = 0; at <= end; at++) {
		if (head[at] === 0x25 && head[at + 1] === 0x50 && head[at + 2] === 0x44 && head[at + 3] === 0x46 && head[at + 4] === 0x2d) return true;
	}
	return false;
}

/** Whether a file is meant as a PDF, by its type or else its extension (its bytes decide). */
export function isPdfFile(name: string, mimeType: string): boolean {
	return mimeType === PDF_TYPE || (!mimeType.startsWith('image/') && /\.pdf$/i.test(name));
}
