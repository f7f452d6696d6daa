// Bytes from a sync server are kept only as what their message says: a PDF must be one.
import { expect, it } from 'vitest';
import { makeTestPdf } from '../attachments/test-pdf';
import { isKeepableBlob } from './received-blob';

it('keeps a PDF that begins as a PDF, and refuses other bytes sent as one', async () => {
	expect(await isKeepableBlob('application/pdf', new Blob([makeTestPdf([['Hello']])]))).toBe(true);
	expect(await isKeepableBlob('application/pdf', new Blob(['<html><script>alert(1)</script></html>']))).toBe(false);
	expect(await isKeepableBlob('text/html', new Blob(['<p>hi</p>']))).toBe(false);
	expect(await isKeepableBlob('text/plain', new Blob(['hi']))).toBe(true);
});
