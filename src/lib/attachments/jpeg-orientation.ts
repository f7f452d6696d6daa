// A JPEG's EXIF orientation: phones store a photo as the sensor saw it and say in this tag how
// to turn it. The page shows it turned; a provider may not, so a turned photo is re-encoded
// upright rather than sent as it came.

/** The bytes searched for the EXIF segment: it comes first, and is at most 64 KB. */
const HEAD_BYTES = 64 * 1024 + 16;
const ORIENTATION_TAG = 0x0112;

/** The orientation (1–8) in the JPEG bytes `head`, or 1 (upright) when it has none. */
export function readJpegOrientation(head: Uint8Array): number {
	const view = new DataView(head.buffer, head.byteOffset, head.byteLength);
	if (view.byteLength < 4 || view.getUint16(0) !== 0xffd8) return 1;
	let at = 2;
	while (at + 4 <= view.byteLength) {
		const marker = view.getUint16(at);
		// Past the markers that may precede the image data: no EXIF here.
		if ((marker & 0xff00) !== 0xff00 || marker === 0xffda) return 1;
		const length = view.getUint16(at + 2);
		if (marker === 0xffe1 && at + 10 <= view.byteLength && view.getUint32(at + 4) === 0x45786966 && view.getUint16(at + 8) === 0) {
			return orientationInTiff(view, at + 10, Math.min(view.byteLength, at + 2 + length));
		}
		at += 2 + length;
	}
	return 1;
}

/** The orientation tag of the first IFD of the TIFF structure at `start` (up to `end`). */
function orientationInTiff(view: DataView, start: number, end: number): number {
	if (start + 8 > end) return 1;
	const order = view.getUint16(start);
	if (order !== 0x4949 && order !== 0x4d4d) return 1;
	const little = order === 0x4949;
	const ifd = start + view.getUint32(start + 4, little);
	if (ifd + 2 > end) return 1;
	const entries = view.getUint16(ifd, little);
	for (let i = 0; i < entries; i++) {
		const entry = ifd + 2 + i * 12;
		if (entry + 12 > end) return 1;
		if (view.getUint16(entry, little) !== ORIENTATION_TAG) continue;
		const value = view.getUint16(entry + 8, little);
		return value >= 1 && value <= 8 ? value : 1;
	}
	return 1;
}

/** The EXIF orientation of the JPEG `blob` (1 when upright or untagged). */
export async function jpegOrientation(blob: Blob): Promise<number> {
	return readJpegOrientation(new Uint8Array(await blob.slice(0, HEAD_BYTES).arrayBuffer()));
}
