// PDF.js's Node build (the legacy one) reads the same files the attachment worker reads with
// the browser build; the bounds and refusals are this module's own.
import { describe, expect, it } from 'vitest';
import type { PdfjsModule } from './load-pdfjs';
import { extractPdfText } from './extract-pdf-text';
import { makeTestPdf } from './test-pdf';

const loadNode = () => import('pdfjs-dist/legacy/build/pdf.mjs') as unknown as Promise<PdfjsModule>;
const pdf = (bytes: Uint8Array<ArrayBuffer>, name = 'report.pdf') => new File([bytes], name, { type: 'application/pdf' });

describe('extractPdfText', () => {
	it('reads the text of every page, in order, a blank line between pages', async () => {
		const file = pdf(makeTestPdf([['Quarterly report', 'Revenue rose (a little).'], ['Second page']]));
		const result = await extractPdfText(file, {}, loadNode);
		expect(result).toEqual({ text: 'Quarterly report\nRevenue rose (a little).\n\nSecond page', pages: 2, totalPages: 2, truncated: false });
	});

	it('stops at the page bound and says the text was cut short', async () => {
		const file = pdf(makeTestPdf(Array.from({ length: 5 }, (_, i) => [`Page ${i + 1}`])));
		const result = await extractPdfText(file, { maxPages: 3 }, loadNode);
		expect(result).toEqual({ text: 'Page 1\n\nPage 2\n\nPage 3', pages: 3, totalPages: 5, truncated: true });
	});

	it('stops at the character bound', async () => {
		const file = pdf(makeTestPdf([['abcdefghij'], ['klmnopqrst']]));
		const result = await extractPdfText(file, { maxChars: 15 }, loadNode);
		expect(result.text).toBe('abcdefghij\n\nklm');
		expect(result.text.length).toBe(15);
		expect(result.truncated).toBe(true);
	});

	it('refuses a PDF protected by a password, saying so', async () => {
		const file = pdf(makeTestPdf([['Secret']], { encrypted: true }), 'secret.pdf');
		await expect(extractPdfText(file, {}, loadNode)).rejects.toMatchObject({
			name: 'AttachmentError',
			message: '“secret.pdf” is protected by a password. Remove the password and attach it again.'
		});
	});

	it('refuses a damaged PDF and a file that is no PDF', async () => {
		const damaged = pdf(Uint8Array.from('%PDF-1.7\nthis is not a PDF body at all', (c) => c.charCodeAt(0)), 'broken.pdf');
		await expect(extractPdfText(damaged, {}, loadNode)).rejects.toMatchObject({ name: 'AttachmentError', message: '“broken.pdf” could not be read as a PDF; it may be damaged.' });
		const text = pdf(new TextEncoder().encode('just some notes'), 'notes.pdf');
		await expect(extractPdfText(text, {}, loadNode)).rejects.toMatchObject({ name: 'AttachmentError', message: '“notes.pdf” is not a PDF.' });
	});

	it('refuses a file over the byte bound before reading it', async () => {
		const file = pdf(makeTestPdf([['Big']]));
		await expect(extractPdfText(file, { maxBytes: 100 }, loadNode)).rejects.toMatchObject({ name: 'AttachmentError', message: expect.stringContaining('larger than') });
	});
});
