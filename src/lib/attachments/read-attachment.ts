// A file the user attached (picked, dropped or pasted), read into what a message keeps: an
// image decoded and, when larger than providers take, scaled down in the attachment worker
// (see prepare-image.ts), a text file checked to be UTF-8 text, a PDF checked by its signature
// and its text read in the worker, anything else refused. A refusal says why in words the chip shows.
import { cleanTitle } from '../db/clean-title';
import type { Attachment } from '../db/schema';
import { IMAGE_TYPES, looksLikeImage } from '../hooks/image-bytes';
import { formatBytes } from '../hooks/plain-data';
import { MAX_ATTACHED_IMAGE_BYTES, MAX_IMAGE_FILE_BYTES, MAX_PDF_BYTES, MAX_TEXT_FILE_BYTES } from './attachment-limits';
import { extractPdfTextInWorker, prepareImageInWorker } from './attachment-client';
import type { PdfText } from './extract-pdf-text';
import { hasPdfSignature, isPdfFile, PDF_HEADER_WITHIN, PDF_TYPE } from './pdf-signature';
import { isAttachmentError } from './attachment-error';
import { STORED_IMAGE_LIMITS } from './image-limits';
import type { PreparedImage } from './prepare-image';
import { isActiveType } from '../sessions/received-blob';
import { decodeText, isTextFile } from './text-file';

export type ReadAttachment = { ok: true; attachment: Attachment; data: Blob } | { ok: false; reason: string };

const IMAGE_EXTENSIONS: Record<string, string> = { png: 'image/png', jpg: 'image/jpeg', jpeg: 'image/jpeg', gif: 'image/gif', webp: 'image/webp' };

/** The image type of a file, by its type or else its extension; null when it is no image this app takes. */
export function imageTypeOf(name: string, mimeType: string): string | null {
	if (IMAGE_TYPES.has(mimeType)) return mimeType;
	if (mimeType.startsWith('image/')) return null;
	return IMAGE_EXTENSIONS[name.split('.').pop()?.toLowerCase() ?? ''] ?? null;
}

export async function readAttachment(file: File, id: string = crypto.randomUUID()): Promise<ReadAttachment> {
	// Shown in chips, the transcript and exports: no control characters (a bidi override could disguise the extension).
	const name = cleanTitle(file.name).trim() || 'attachment';
	const imageType = imageTypeOf(name, file.type);
	if (imageType) return readImage(file, name, imageType, id);
	if (isPdfFile(name, file.type)) return readPdf(file, name, id);
	if (isTextFile(name, file.type)) return readTextFile(file, name, id);
	return { ok: false, reason: 'Only images (PNG, JPEG, GIF, WebP), text files (text, Markdown, code, CSV, JSON) and PDFs can be attached.' };
}

async function readImage(file: File, name: string, mimeType: string, id: string): Promise<ReadAttachment> {
	if (file.size > MAX_IMAGE_FILE_BYTES) return { ok: false, reason: `Too large: an image file may be at most ${formatBytes(MAX_IMAGE_FILE_BYTES)}.` };
	const head = new Uint8Array(await file.slice(0, 16).arrayBuffer());
	if (!looksLikeImage(mimeType, head)) return { ok: false, reason: 'Not a PNG, JPEG, GIF or WebP image, whatever its name says.' };
	let prepared: PreparedImage;
	try {
		prepared = await prepareImageInWorker(file, STORED_IMAGE_LIMITS);
	} catch (error) {
		return { ok: false, reason: isAttachmentError(error) ? error.message : 'This image could not be read: it may be damaged.' };
	}
	if (prepared.blob.size > MAX_ATTACHED_IMAGE_BYTES) return { ok: false, reason: `Too large: even scaled down, this image is over ${formatBytes(MAX_ATTACHED_IMAGE_BYTES)}.` };
	const data = prepared.blob.type === prepared.mimeType ? prepared.blob : new Blob([prepared.blob], { type: prepared.mimeType });
	return {
		ok: true,
		data,
		attachment: { type: 'image', id, name, mimeType: prepared.mimeType, size: data.size, width: prepared.width, height: prepared.height }
	};
}

async function readTextFile(file: File, name: string, id: string): Promise<ReadAttachment> {
	if (file.size > MAX_TEXT_FILE_BYTES) return { ok: false, reason: `Too large: a text file may be at most ${formatBytes(MAX_TEXT_FILE_BYTES)}.` };
	const bytes = new Uint8Array(await file.arrayBuffer());
	if (decodeText(bytes) === null) return { ok: false, reason: 'Not UTF-8 text: only text files can be attached this way.' };
	// Kept as plain text whatever it is (HTML, SVG, a script): its bytes are never run, here or on a device it syncs to.
	const mimeType = !file.type || isActiveType(file.type) ? 'text/plain' : file.type;
	return { ok: true, data: new Blob([bytes], { type: mimeType }), attachment: { type: 'file', id, name, mimeType, size: bytes.length } };
}

async function readPdf(file: File, name: string, id: string): Promise<ReadAttachment> {
	if (file.size > MAX_PDF_BYTES) return { ok: false, reason: `Too large: a PDF may be at most ${formatBytes(MAX_PDF_BYTES)}.` };
	if (!hasPdfSignature(new Uint8Array(await file.slice(0, PDF_HEADER_WITHIN).arrayBuffer()))) return { ok: false, reason: 'Not a PDF, whatever its name says.' };
	let read: PdfText;
	try {
		read = await extractPdfTextInWorker(file);
	} catch (error) {
		return { ok: false, reason: isAttachmentError(error) ? error.message : 'This PDF could not be read: it may be damaged.' };
	}
	const data = new Blob([file], { type: PDF_TYPE });
	return { ok: true, data, attachment: { type: 'file', id, name, mimeType: PDF_TYPE, size: file.size, pages: read.totalPages, text: pdfText(read) } };
}

/** What a model that cannot read PDFs is given: the text, and a note where some of it is missing. */
function pdfText(read: PdfText): string {
	if (!read.text.trim()) return '(No text was found in this PDF: its pages may be pictures of text.)';
	return read.truncated ? `${read.text}\n\n(Only the first ${read.pages} of ${read.totalPages} pages, or part of them, were read: the rest is too long.)` : read.text;
}
