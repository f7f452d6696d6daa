// Small PDFs written by hand for tests and the benchmark: pages of text in Helvetica, and on
// request an encryption dictionary whose password is not empty (so a reader must ask for it).
// Byte offsets in the cross-reference table are exact, so no reader needs to repair the file.

export interface TestPdfOptions {
	/** Protected by a user password (the file cannot be read without it). */
	encrypted?: boolean;
}

const escapeText = (text: string) => text.replace(/[\\()]/g, (char) => `\\${char}`);

/** A PDF with one page per entry of `pages`, each line of an entry a line of text. */
export function makeTestPdf(pages: string[][], options: TestPdfOptions = {}): Uint8Array<ArrayBuffer> {
	const objects: string[] = [];
	const add = (body: string) => objects.push(body);
	add('<< /Type /Catalog /Pages 2 0 R >>');
	const kids = pages.map((_, i) => `${4 + i * 2} 0 R`).join(' ');
	add(`<< /Type /Pages /Kids [${kids}] /Count ${pages.length} >>`);
	add('<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica /Encoding /WinAnsiEncoding >>');
	for (const [i, lines] of pages.entries()) {
		add(`<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Resources << /Font << /F1 3 0 R >> >> /Contents ${5 + i * 2} 0 R >>`);
		const content = `BT /F1 12 Tf 14 TL 72 720 Td ${lines.map((line) => `(${escapeText(line)}) Tj T*`).join(' ')} ET`;
		add(`<< /Length ${content.length} >>\nstream\n${content}\nendstream`);
	}
	let encrypt = '';
	if (options.encrypted) {
		const hex = (byte: number) => byte.toString(16).padStart(2, '0').repeat(32);
		add(`<< /Filter /Standard /V 1 /R 2 /O <${hex(0x5a)}> /U <${hex(0xa5)}> /P -44 >>`);
		encrypt = ` /Encrypt ${objects.length} 0 R /ID [<${'01'.repeat(16)}> <${'01'.repeat(16)}>]`;
	}
	let file = '%PDF-1.4\n';
	const offsets: number[] = [];
	for (const [i, body] of objects.entries()) {
		offsets.push(file.length);
		file += `${i + 1} 0 obj\n${body}\nendobj\n`;
	}
	const xref = file.length;
	file += `xref\n0 ${objects.length + 1}\n0000000000 65535 f \n`;
	for (const offset of offsets) file += `${String(offset).padStart(10, '0')} 00000 n \n`;
	file += `trailer\n<< /Size ${objects.length + 1} /Root 1 0 R${encrypt} >>\nstartxref\n${xref}\n%%EOF\n`;
	return Uint8Array.from(file, (char) => char.charCodeAt(0));
}
