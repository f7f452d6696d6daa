import { describe, expect, it } from 'vitest';
import { readJpegOrientation } from './jpeg-orientation';

/** A JPEG's first bytes: an optional JFIF segment, then an EXIF segment whose first IFD holds `tags`. */
function jpegHead(tags: Array<[number, number]>, { little = false, jfif = false } = {}): Uint8Array {
	const u16 = (value: number) => (little ? [value & 0xff, value >> 8] : [value >> 8, value & 0xff]);
	const u32 = (value: number) => (little ? [value & 0xff, (value >> 8) & 0xff, (value >> 16) & 0xff, value >>> 24] : [value >>> 24, (value >> 16) & 0xff, (value >> 8) & 0xff, value & 0xff]);
	const tiff = [...(little ? [0x49, 0x49] : [0x4d, 0x4d]), ...u16(42), ...u32(8), ...u16(tags.length), ...tags.flatMap(([tag, value]) => [...u16(tag), ...u16(3), ...u32(1), ...u16(value), 0, 0]), ...u32(0)];
	const exif = [0x45, 0x78, 0x69, 0x66, 0, 0, ...tiff];
	const app1 = [0xff, 0xe1, (exif.length + 2) >> 8, (exif.length + 2) & 0xff, ...exif];
	const app0 = jfif ? [0xff, 0xe0, 0, 16, 0x4a, 0x46, 0x49, 0x46, 0, 1, 1, 0, 0, 1, 0, 1, 0, 0] : [];
	return Uint8Array.from([0xff, 0xd8, ...app0, ...app1, 0xff, 0xda, 0, 2]);
}

describe('readJpegOrientation', () => {
	it('reads the orientation a phone wrote, in either byte order, after a JFIF segment', () => {
		expect(readJpegOrientation(jpegHead([[0x0112, 6]]))).toBe(6);
		expect(readJpegOrientation(jpegHead([[0x010f, 1], [0x0112, 8]], { little: true }))).toBe(8);
		expect(readJpegOrientation(jpegHead([[0x0112, 3]], { jfif: true }))).toBe(3);
	});

	it('says upright for a photo without the tag, a value out of range, and bytes that are no JPEG', () => {
		expect(readJpegOrientation(jpegHead([[0x010f, 1]]))).toBe(1);
		expect(readJpegOrientation(jpegHead([[0x0112, 42]]))).toBe(1);
		expect(readJpegOrientation(Uint8Array.from([0x89, 0x50, 0x4e, 0x47]))).toBe(1);
		expect(readJpegOrientation(jpegHead([[0x0112, 6]]).subarray(0, 20))).toBe(1);
	});
});
