// The one check every file's bytes pass on their way in, whatever brings them (the Attach
// button, an import, sync, a tool's result) and again before they are shown: what the bytes are
// is read from the bytes (an image's signature, a PDF's header, UTF-8 text), never from the name
// or type they came with, and the type they are kept and shown as comes from one list.
import { formatBytes } from '../hooks/plain-data';
import { IMAGE_TYPES, looksLikeImage, MAX_IMAGE_BYTES } from '../hooks/image-bytes';
import { MAX_PDF_BYTES, MAX_TEXT_FILE_BYTES } from './attachment-limits';
import { hasPdfSignature, PDF_HEADER_WITHIN, PDF_TYPE } from './pdf-signature';
import { decodeText } from './text-file';

export type BytesKind = 'image' | 'pdf' | 'text';

/** Text is kept as one of these types when it says so, else as text/plain: none is a type a browser runs. */
const TEXT_TYPES: readonly string[] = ['text/plain', 'text/markdown', 'text/csv', 'text/tab-separated-values', 'application/json'];

/** Every type a kept file has: the only types a Blob of one is ever made with. */
export const KEPT_TYPES: ReadonlySet<string> = new Set([...IMAGE_TYPES, PDF_TYPE, ...TEXT_TYPES]);

/** The largest file of each kind kept. */
export const MAX_KEPT_BYTES: Readonly<Record<BytesKind, number>> = { image: MAX_IMAGE_BYTES, pdf: MAX_PDF_BYTES, text: MAX_TEXT_FILE_BYTES };

/** What a message says a file is: an image (of one of IMAGE_TYPES) or a file (a PDF, or text), and its type. */
export interface DeclaredBytes {
	kind: 'image' | 'file';
	type: string;
}

/** What the bytes are, and the type they are kept and shown as; or why they are not kept, in words to follow "refused: ". */
export type CheckedBytes = { ok: true; kind: BytesKind; type: string } | { ok: false; reason: string };

/** How a person names each image type. */
export const IMAGE_LABELS: Readonly<Record<string, string>> = { 'image/png': 'PNG', 'image/jpeg': 'JPEG', 'image/gif': 'GIF', 'image/webp': 'WebP' };

/** The image type whose signature `head` begins with, if any. */
export function sniffImageType(head: Uint8Array): string | undefined {
	return [...IMAGE_TYPES].find((type) => looksLikeImage(type, head));
}

/** A declared text type as kept: itself when on the list, else text/plain. */
function keptTextType(declared: string): string {
	const type = declared.toLowerCase().split(';')[0].trim();
	return TEXT_TYPES.includes(type) ? type : 'text/plain';
}

/** The reasons a file called text or a PDF is refused for, as the Message box words them its own way. */
export const NOT_TEXT = 'its bytes are not UTF-8 text';
export const NOT_PDF = 'its bytes are not a PDF';

const refuse = (reason: string): CheckedBytes => ({ ok: false, reason });
const NOUNS: Record<BytesKind, string> = { image: 'an image', pdf: 'a PDF', text: 'a text file' };
const tooLarge = (kind: BytesKind, size: number): CheckedBytes | null =>
	size > MAX_KEPT_BYTES[kind] ? refuse(`it is over ${formatBytes(MAX_KEPT_BYTES[kind])}, the most ${NOUNS[kind]} may be`) : null;

/**
 * Judges bytes by their first PDF_HEADER_WITHIN (`head`) and their size; 'text' when all that is
 * left is to read them whole as UTF-8 text.
 */
function judge(head: Uint8Array, size: number, declared: DeclaredBytes): CheckedBytes | 'text' {
	const image = sniffImageType(head);
	if (declared.kind === 'image') {
		if (!image) return refuse('its bytes are not a PNG, JPEG, GIF or WebP image');
		if (image !== declared.type) return refuse(`its bytes are a ${IMAGE_LABELS[image]} image, not the ${IMAGE_LABELS[declared.type] ?? declared.type} image it is said to be`);
		return tooLarge('image', size) ?? { ok: true, kind: 'image', type: image };
	}
	// A file whose bytes begin as an image (a GIF's signature is plain letters) is an image posing as a file.
	if (image) return refuse(`its bytes are a ${IMAGE_LABELS[image]} image, not a file`);
	if (declared.type.toLowerCase() === PDF_TYPE) {
		if (!hasPdfSignature(head)) return refuse(NOT_PDF);
		return tooLarge('pdf', size) ?? { ok: true, kind: 'pdf', type: PDF_TYPE };
	}
	return tooLarge('text', size) ?? 'text';
}

function asText(bytes: Uint8Array, declared: DeclaredBytes): CheckedBytes {
	return decodeText(bytes) === null ? refuse(NOT_TEXT) : { ok: true, kind: 'text', type: keptTextType(declared.type) };
}

/** What `bytes` are, given what a message says they are. */
export function checkBytes(bytes: Uint8Array, declared: DeclaredBytes): CheckedBytes {
	const judged = judge(bytes.subarray(0, PDF_HEADER_WITHIN), bytes.length, declared);
	return judged === 'text' ? asText(bytes, declared) : judged;
}

/** What the bytes of `blob` are, given what a message says they are: reads only the head of an image or a PDF. */
export async function checkBlob(blob: Blob, declared: DeclaredBytes): Promise<CheckedBytes> {
	const judged = judge(new Uint8Array(await blob.slice(0, PDF_HEADER_WITHIN).arrayBuffer()), blob.size, declared);
	return judged === 'text' ? asText(new Uint8Array(await blob.arrayBuffer()), declared) : judged;
}

/** `blob` as a Blob of the type its check found (the bytes shared, not copied). */
export function typedAs(blob: Blob, type: string): Blob {
	return blob.type === type ? blob : new Blob([blob], { type });
}
