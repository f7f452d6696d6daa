// Which attached files go to a model as text: known by type or extension, and only when their
// bytes really are UTF-8 text.
import { describe, expect, it } from 'vitest';
import { decodeText, isTextFile } from './text-file';

describe('text files', () => {
	it('are known by their type: text/*, JSON, XML and the common source types', () => {
		for (const [name, type] of [
			['notes', 'text/plain'],
			['page.html', 'text/html'],
			['data', 'application/json'],
			['feed', 'application/atom+xml'],
			['report', 'application/vnd.api+json'],
			['table', 'text/csv; charset=utf-8']
		]) {
			expect(isTextFile(name, type), `${name} ${type}`).toBe(true);
		}
	});

	it('are known by their extension where the system gives no type or a wrong one', () => {
		for (const name of ['README.md', 'main.rs', 'app.ts', 'Component.svelte', 'data.CSV', 'config.yaml', 'Makefile', 'script.py', 'notes.txt', 'query.sql']) {
			expect(isTextFile(name, ''), name).toBe(true);
		}
		// Many systems call a TypeScript file an MPEG transport stream.
		expect(isTextFile('index.ts', 'video/mp2t')).toBe(true);
	});

	it('leave out binary files: PDFs, archives, office documents, executables', () => {
		for (const [name, type] of [
			['paper.pdf', 'application/pdf'],
			['photos.zip', 'application/zip'],
			['letter.docx', 'application/vnd.openxmlformats-officedocument.wordprocessingml.document'],
			['tool.exe', 'application/octet-stream'],
			['movie.mp4', 'video/mp4'],
			['noext', '']
		]) {
			expect(isTextFile(name, type), name).toBe(false);
		}
	});

	it('decode only when their bytes are UTF-8 without NUL characters', () => {
		expect(decodeText(new TextEncoder().encode('héllo, 世界 🙂'))).toBe('héllo, 世界 🙂');
		expect(decodeText(new Uint8Array([]))).toBe('');
		// Latin-1 "é" alone is not UTF-8; a PNG's signature is not text; NUL marks a binary file.
		expect(decodeText(new Uint8Array([0x63, 0x61, 0x66, 0xe9]))).toBeNull();
		expect(decodeText(new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]))).toBeNull();
		expect(decodeText(new TextEncoder().encode('a\u0000b'))).toBeNull();
	});
});
