// A PDF is known by its header, wherever in its first kilobyte it starts, never by its name.
import { expect, it } from 'vitest';
import { hasPdfSignature, isPdfFile } from './pdf-signature';
import { makeTestPdf } from './test-pdf';

const bytes = (text: string) => Uint8Array.from(text, (char) => char.charCodeAt(0));

it('knows a PDF by its %PDF- header, also after a few bytes of something else', () => {
	expect(hasPdfSignature(makeTestPdf([['Hello']]))).toBe(true);
	expect(hasPdfSignature(bytes(`${' '.repeat(100)}%PDF-1.7`))).toBe(true);
	expect(hasPdfSignature(bytes('PK\u0003\u0004 a zip called report.pdf'))).toBe(false);
	expect(hasPdfSignature(bytes(`${' '.repeat(1100)}%PDF-1.7`))).toBe(false);
	expect(hasPdfSignature(bytes('%PDF'))).toBe(false);
});

it('takes a file as meant to be a PDF by its type or its extension', () => {
	expect(isPdfFile('scan', 'application/pdf')).toBe(true);
	expect(isPdfFile('Report.PDF', '')).toBe(true);
	expect(isPdfFile('report.pdf', 'application/octet-stream')).toBe(true);
	expect(isPdfFile('notes.txt', 'text/plain')).toBe(false);
});
