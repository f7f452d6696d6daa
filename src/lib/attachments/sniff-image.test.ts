import { describe, expect, it } from 'vitest';
import { sniffImage } from './sniff-image';

const bytes = (...parts: Array<string | number[]>) => Uint8Array.from(parts.flatMap((part) => (typeof part === 'string' ? [...part].map((c) => c.charCodeAt(0)) : part)));
const file = (content: Uint8Array<ArrayBuffer>, name: string, type: string) => new File([content], name, { type });
/** A WebP's first 32 bytes: RIFF header, then the first chunk's name and header bytes. */
const webp = (chunk: string, header: number[]) => bytes('RIFF', [0, 0, 0, 0], 'WEBP', chunk, [0, 0, 0, 0], header, new Array(16).fill(0));

describe('sniffImage', () => {
	it('goes by the bytes, not the name: a JPEG saved as .png is a JPEG', async () => {
		expect(await sniffImage(file(bytes([0xff, 0xd8, 0xff, 0xe0]), 'photo.png', 'image/png'))).toEqual({ type: 'image/jpeg', alpha: false });
		expect(await sniffImage(file(bytes([0x89], 'PNG\r\n\x1a\n'), 'x.bin', ''))).toEqual({ type: 'image/png', alpha: true });
		expect(await sniffImage(file(bytes('GIF89a'), 'x.gif', 'image/gif'))).toEqual({ type: 'image/gif', alpha: true });
	});

	it('reads a WebP’s alpha flag (extended and lossless headers), so only a transparent one stays lossless', async () => {
		expect(await sniffImage(file(webp('VP8 ', [0, 0, 0, 0]), 'a.webp', 'image/webp'))).toEqual({ type: 'image/webp', alpha: false });
		expect(await sniffImage(file(webp('VP8X', [0x10, 0, 0, 0]), 'b.webp', 'image/webp'))).toEqual({ type: 'image/webp', alpha: true });
		expect(await sniffImage(file(webp('VP8X', [0x00, 0, 0, 0]), 'c.webp', 'image/webp'))).toEqual({ type: 'image/webp', alpha: false });
		expect(await sniffImage(file(webp('VP8L', [0x2f, 0, 0, 0, 0x10]), 'd.webp', 'image/webp'))).toEqual({ type: 'image/webp', alpha: true });
		expect(await sniffImage(file(webp('VP8L', [0x2f, 0, 0, 0, 0x00]), 'e.webp', 'image/webp'))).toEqual({ type: 'image/webp', alpha: false });
	});

	it('refuses a file that holds no image, naming it and what it claimed to be', async () => {
		await expect(sniffImage(file(bytes('hello'), 'cat.png', 'image/png'))).rejects.toMatchObject({
			name: 'AttachmentError',
			message: '“cat.png” is not a PNG image: its contents are not a picture. Only PNG, JPEG, WebP and GIF images can be attached.'
		});
		await expect(sniffImage(new Blob(['hello']))).rejects.toMatchObject({ name: 'AttachmentError', message: 'This file is not a PNG, JPEG, WebP or GIF image.' });
		await expect(sniffImage(file(bytes(), 'empty.jpg', 'image/jpeg'))).rejects.toMatchObject({ message: expect.stringContaining('“empty.jpg” is not a JPEG image') });
	});
});
