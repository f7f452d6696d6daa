// The text of a PDF, page by page, for a provider that cannot read PDFs itself. Runs in the
// attachment worker with PDF.js (loaded on the first PDF); the pages and characters read are
// bounded, and an encrypted or damaged file is refused with a message for the user.
import { AttachmentError, formatBytes, nameOf } from './attachment-error';
import { loadPdfjs, type PdfjsModule } from './load-pdfjs';
import { hasPdfSignature, PDF_HEADER_WITHIN } from './pdf-signature';

export interface PdfText {
	/** The pages' text, a blank line between pages. */
	text: string;
	/** The pages read (all of them unless a bound was reached). */
	pages: number;
	/** The pages in the file. */
	totalPages: number;
	/** Whether a bound (pages or characters) cut the text short. */
	truncated: boolean;
}

export interface PdfTextLimits {
	/** The largest file read, in bytes. */
	maxBytes: number;
	maxPages: number;
	/** The text kept, in characters (about a quarter as many tokens). */
	maxChars: number;
}

export const PDF_TEXT_LIMITS: Readonly<PdfTextLimits> = Object.freeze({ maxBytes: 32 * 1024 * 1024, maxPages: 500, maxChars: 400_000 });

async function looksLikePdf(blob: Blob): Promise<boolean> {
	return hasPdfSignature(new Uint8Array(await blob.slice(0, PDF_HEADER_WITHIN).arrayBuffer()));
}

/** One page's text: each run of text as PDF.js found it, a line break where it saw one. */
function pageText(items: ReadonlyArray<object>): string {
	let text = '';
	for (const item of items) {
		if (!('str' in item) || typeof item.str !== 'string') continue;
		text += item.str;
		if ('hasEOL' in item && item.hasEOL) text += '\n';
	}
	return text.replace(/[ \t]+\n/g, '\n').trim();
}

function refusal(error: unknown, blob: Blob): AttachmentError {
	const name = error instanceof Error ? error.name : '';
	if (name === 'PasswordException') return new AttachmentError(`${nameOf(blob)} is protected by a password. Remove the password and attach it again.`);
	return new AttachmentError(`${nameOf(blob)} could not be read as a PDF; it may be damaged.`);
}

/**
 * The text of the PDF `blob`, within `limits` (PDF_TEXT_LIMITS by default). `load` gives
 * PDF.js (the browser build, loaded on first use; tests pass Node's).
 */
export async function extractPdfText(blob: Blob, limits: Partial<PdfTextLimits> = {}, load: () => Promise<PdfjsModule> = loadPdfjs): Promise<PdfText> {
	const bounds = { ...PDF_TEXT_LIMITS, ...limits };
	if (blob.size > bounds.maxBytes) throw new AttachmentError(`${nameOf(blob)} is larger than ${formatBytes(bounds.maxBytes)}, the largest PDF that can be read.`);
	if (!(await looksLikePdf(blob))) throw new AttachmentError(`${nameOf(blob)} is not a PDF.`);
	const pdfjs = await load();
	const task = pdfjs.getDocument({
		data: new Uint8Array(await blob.arrayBuffer()),
		// Text only: no script from a string (the page's policy forbids it), no fonts installed.
		isEvalSupported: false,
		disableFontFace: true,
		useSystemFonts: false,
		verbosity: pdfjs.VerbosityLevel.ERRORS
	});
	try {
		let document;
		try {
			document = await task.promise;
		} catch (error) {
			throw refusal(error, blob);
		}
		const totalPages = document.numPages;
		const texts: string[] = [];
		let chars = 0;
		let truncated = false;
		for (let number = 1; number <= totalPages; number++) {
			if (number > bounds.maxPages || chars >= bounds.maxChars) {
				truncated = true;
				break;
			}
			let text: string;
			try {
				const page = await document.getPage(number);
				text = pageText((await page.getTextContent()).items);
				page.cleanup();
			} catch (error) {
				throw refusal(error, blob);
			}
			const separator = texts.length ? 2 : 0;
			if (chars + separator + text.length > bounds.maxChars) {
				text = text.slice(0, Math.max(0, bounds.maxChars - chars - separator));
				truncated = true;
			}
			texts.push(text);
			chars += separator + text.length;
		}
		return { text: texts.join('\n\n'), pages: texts.length, totalPages, truncated };
	} finally {
		await task.destroy();
	}
}
