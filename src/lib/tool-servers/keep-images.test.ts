// A result's images made ready to keep: bytes apart under fresh ids, and only real images kept.
import { describe, expect, it } from 'vitest';
import { encodeBase64 } from '../hooks/image-bytes';
import { keepImages } from './keep-images';
import type { ToolResultView } from './types';

const PNG = new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13, 73, 72, 68, 82]);
const view = (parts: ToolResultView['parts']): ToolResultView => ({ isError: false, forModel: '[image: image/png, 1 KB]', parts });

describe('keeping the images of a result', () => {
	it('decodes each image into a Blob under a fresh id, the part keeping its type, size and dimensions', async () => {
		const kept = await keepImages(view([{ type: 'text', text: 'A chart:' }, { type: 'image', mimeType: 'image/png', data: encodeBase64(PNG) }]), async () => ({ width: 3, height: 2 }));
		const [text, image] = kept.parts;
		expect(text).toEqual({ type: 'text', text: 'A chart:' });
		expect(image).toEqual({ type: 'image', id: expect.any(String), mimeType: 'image/png', size: PNG.length, width: 3, height: 2 });
		expect(kept.images).toHaveLength(1);
		expect(kept.images[0].id).toBe(image.type === 'image' ? image.id : '');
		expect(new Uint8Array(await kept.images[0].data.arrayBuffer())).toEqual(PNG);
		expect(kept.images[0].data.type).toBe('image/png');
		expect(JSON.stringify(kept.parts)).not.toContain(encodeBase64(PNG));
	});

	it('leaves out, with a note, bytes that are not the image they claim to be or that do not decode', async () => {
		const html = encodeBase64(new TextEncoder().encode('<html><script>alert(1)</script></html>'));
		const notDecoded = await keepImages(view([{ type: 'image', mimeType: 'image/png', data: encodeBase64(PNG) }]), async () => {
			throw new Error('broken');
		});
		const disguised = await keepImages(view([{ type: 'image', mimeType: 'image/png', data: html }]), async () => ({ width: 1, height: 1 }));
		for (const kept of [notDecoded, disguised]) {
			expect(kept.images).toEqual([]);
			expect(kept.parts).toEqual([{ type: 'note', text: expect.stringMatching(/^An image \(image\/png, .*\) was left out: its bytes are not an image of that type\.$/) }]);
		}
	});
});
