// A file the user attached (picked, dropped or pasted), read into what a message keeps: an
// image decoded and, when larger than providers take, scaled down in the attachment worker
// (see prepare-image.ts), a text file checked to be UTF-8 text, a PDF checked by its signature
// and its text read in the worker, anything else refused; what is kept passes the one check of
// every file's bytes (check-bytes.ts). A refusal says why in words the chip shows.
import { cleanTitle } from '../db/clean-title';
import type { Attachment } from '../db/schema';
import { IMAGE_TYPES, looksLikeImage } from '../hooks/image-bytes';
import { formatBytes } from '../hooks/plain-data';
import { MAX_ATTACHED_IMAGE_BYTES, MAX_IMAGE_FILE_BYTES, MAX_PDF_BYTES, MAX_TEXT_FILE_BYTES } from './attachment-limits';
import { extractPdfTextInWorker, prepareImageInWorker } from './attachment-client';
import type { PdfText } from './extract-pdf-text';
import { isPdfFile, PDF_TYPE } from './pdf-signature';
import { checkBlob, checkBytes, NOT_PDF, NOT_TEXT, typedAs } from './check-bytes';
import { isAttachmentError } from './attachment-error';
import { STORED_IMAGE_LIMITS } from './image-limits';
import type { PreparedImage } from './prepare-image';
import { isTextFile } from './text-file';

export type ReadAttachment = { ok: true; attachment: Attachment; data: Blob } | { ok: false; reason: string };

const IMAGE_EXTENSIONS: Record<string, string> = { png: 'image/png', jpg: 'image/jpeg', jpeg: 'image/jpeg', gif: 'image/gif', webp: 'image/webp' };

/** The image type of a file, by its type or else its extension; null when it is no image this app takes. */
export function imageTypeOf(name: string, mimeType: string): string | null {
	if (IMAGE_TYPES.has(mimeType)) return mimeType;
	if (mimeType.startsWith('image/')) return null;
	return IMAGE_EXTENSIONS[name.split('.').pop()?.toLowerCase() ?? ''] ?? null;
}

/** A reason of the check as a sentence of its own. */
const sentence = (reason: string) => `${reason[0].toUpperCase()}${reason.slice(1)}.`;

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
	// What is kept passes the check every file's bytes pass, wherever they come from.
	const checked = await checkBlob(prepared.blob, { kind: 'image', type: prepared.mimeType });
	if (!checked.ok) return { ok: false, reason: sentence(checked.reason) };
	const data = typedAs(prepared.blob, checked.type);
	return {
		ok: true,
		data,
		attachment: { type: 'image', id, name, mimeType: checked.type, size: data.size, width: prepared.width, height: prepared.height }
	};
}

async function readTextFile(file: File, name: string, id: string): Promise<ReadAttachment> {
	if (file.size > MAX_TEXT_FILE_BYTES) return { ok: false, reason: `Too large: a text file may be at most ${formatBytes(MAX_TEXT_FILE_BYTES)}.` };
	const bytes = new Uint8Array(await file.arrayBuffer());
	// Kept as text of a type on the one list (HTML, SVG or a script is plain text): its bytes are never run, here or on a device it syncs to.
	const checked = checkBytes(bytes, { kind: 'file', type: file.type });
	if (!checked.ok) return { ok: false, reason: checked.reason === NOT_TEXT ? 'Not UTF-8 text: only text files can be attached this way.' : sentence(checked.reason) };
	return { ok: true, data: new Blob([bytes], { type: checked.type }), attachment: { type: 'file', id, name, mimeType: checked.type, size: bytes.length } };
}

async function readPdf(file: File, name: string, id: string): Promise<ReadAttachment> {
	if (file.size > MAX_PDF_BYTES) return { ok: false, reason: `Too large: a PDF may be at most ${formatBytes(MAX_PDF_BYTES)}.` };
	const checked = await checkBlob(file, { kind: 'file', type: PDF_TYPE });
	if (!checked.ok) return { ok: false, reason: checked.reason === NOT_PDF ? 'Not a PDF, whatever its name says.' : sentence(checked.reason) };
	let read: PdfText;
	try {
		read = await extractPdfTextInWorker(file);
	} catch (error) {
		return { ok: false, reason: isAttachmentError(error) ? error.message : 'This PDF could not be read: it may be damaged.' };
	}
	const data = new Blob([file], { type: checked.type });
	return { ok: true, data, attachment: { type: 'file', id, name, mimeType: checked.type, size: file.size, pages: read.totalPages, text: pdfText(read) } };
}

/** What a model that cannot read PDFs is given: the text, and a note where some of it is missing. */
function pdfText(read: PdfText): string {
	if (!read.text.trim()) return '(No text was found in this PDF: its pages may be pictures of text.)';
	return read.truncated ? `${read.text}\n\n(Only the first ${read.pages} of ${read.totalPages} pages, or part of them, were read: the rest is too long.)` : read.text;
}
