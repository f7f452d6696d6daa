// The Blobs a pull brings pass the one check of every file's bytes as what their message says
// they are, and are kept as the type the check gives; one id is one file, so a message that says
// something else of an id another message showed brings nothing under it, and a Blob that
// arrives never takes the place of one of another type.
import 'fake-indexeddb/auto';
import { afterEach, describe, expect, it } from 'vitest';
import { openProfileDb, type PalimpsestDb } from '../db/database';
import { messageDocId } from './document-ids';
import { keptBlobs, putArrivedBlobs } from './dexie-blobs';
import type { PulledDoc } from './sync-store';

const PNG = new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13, 73, 72, 68, 82]);
const JPEG = new Uint8Array([0xff, 0xd8, 0xff, 0xe0, 0, 16, 74, 70, 73, 70, 0, 1, 1, 0, 0, 1]);
const HTML = new TextEncoder().encode('<!doctype html><script src="http://127.0.0.1:9/x.js"></script>');
const POSITIONS = ['01KBZ000000000000000000001', '01KBZ000000000000000000002'];

type Shown = { id: string; mimeType: string; size: number };

/** A pulled tool result at `at` showing these images, with these bytes arrived for them (of the type the sender kept them as). */
function pulled(at: number, images: Shown[], received: Array<{ id: string; bytes: Uint8Array<ArrayBuffer>; type: string }>): PulledDoc {
	return {
		kind: 'message',
		rev: '1-a',
		doc: {
			session_id: 's',
			position: POSITIONS[at],
			message: {
				id: `m${at}`, role: 'tool', tool_call_id: 'c1', content: '[image]', status: 'complete', kind: 'message', created_at: 1,
				tool_result: { server: 'pictures', is_error: false, parts: images.map((image) => ({ type: 'image' as const, ...image })) }
			},
			blobs: received.map(({ id, bytes, type }) => ({ id, type, size: bytes.length }))
		},
		attached: received.map(({ id }) => id),
		received: received.map(({ id, bytes, type }) => ({ id, type, data: new Blob([bytes], { type }) }))
	};
}

const keptAt = async (docs: PulledDoc[], at: number) =>
	Promise.all(((await keptBlobs(docs)).get(messageDocId('s', POSITIONS[at])) ?? []).map(async (row) => ({ id: row.id, type: row.type, blobType: row.data.type, bytes: new Uint8Array(await row.data.arrayBuffer()) })));

describe('the Blobs a pull brings', () => {
	it('are kept as the type the check of their bytes gives, not the type the sender kept them as; a page sent as a PNG is refused', async () => {
		const png = [pulled(0, [{ id: 'a', mimeType: 'image/png', size: PNG.length }], [{ id: 'a', bytes: PNG, type: 'text/html' }])];
		expect(await keptAt(png, 0)).toEqual([{ id: 'a', type: 'image/png', blobType: 'image/png', bytes: PNG }]);
		const page = [pulled(0, [{ id: 'a', mimeType: 'image/png', size: HTML.length }], [{ id: 'a', bytes: HTML, type: 'image/png' }])];
		expect(await keptAt(page, 0)).toEqual([]);
		const jpegAsPng = [pulled(0, [{ id: 'a', mimeType: 'image/png', size: JPEG.length }], [{ id: 'a', bytes: JPEG, type: 'image/png' }])];
		expect(await keptAt(jpegAsPng, 0)).toEqual([]);
	});

	it('bring nothing under an id that two messages say different things of', async () => {
		const twice = [
			pulled(0, [{ id: 'a', mimeType: 'image/png', size: PNG.length }], [{ id: 'a', bytes: PNG, type: 'image/png' }]),
			pulled(1, [{ id: 'a', mimeType: 'image/jpeg', size: JPEG.length }], [{ id: 'a', bytes: JPEG, type: 'image/jpeg' }])
		];
		expect((await keptAt(twice, 0)).map((row) => row.type)).toEqual(['image/png']);
		expect(await keptAt(twice, 1)).toEqual([]);
		const inOne = [pulled(0, [{ id: 'a', mimeType: 'image/png', size: PNG.length }, { id: 'a', mimeType: 'image/jpeg', size: PNG.length }], [{ id: 'a', bytes: PNG, type: 'image/png' }])];
		expect(await keptAt(inOne, 0)).toEqual([]);
	});
});

describe('writing the Blobs that arrived', () => {
	const opened: PalimpsestDb[] = [];
	afterEach(async () => {
		for (const db of opened.splice(0)) await db.delete();
	});

	it('never writes over a Blob of the same id of another type', async () => {
		const db = openProfileDb(`arrived-${crypto.randomUUID()}`);
		opened.push(db);
		await db.blobs.put({ session_id: 's', id: 'a', type: 'image/png', data: new Blob([PNG], { type: 'image/png' }) });
		await putArrivedBlobs(db, [
			{ session_id: 's', id: 'a', type: 'text/plain', data: new Blob([HTML], { type: 'text/plain' }) },
			{ session_id: 's', id: 'b', type: 'text/plain', data: new Blob([HTML], { type: 'text/plain' }) }
		]);
		expect((await db.blobs.toArray()).map((row) => [row.id, row.type])).toEqual([
			['a', 'image/png'],
			['b', 'text/plain']
		]);
	});
});
