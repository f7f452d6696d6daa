// The Blobs a pull brings pass the one check of every file's bytes as what the session's messages
// say they are (by their own document's type while no message says), and are kept as the type
// the check gives; one id is one file, so an id two messages say different things of brings
// nothing, and a Blob that arrives never takes the place of one of another type.
import 'fake-indexeddb/auto';
import { afterEach, describe, expect, it } from 'vitest';
import { openProfileDb, type PalimpsestDb } from '../db/database';
import type { MessageRow } from '../db/schema';
import { blobDocId } from './document-ids';
import { keptBlobs, putArrivedBlobs } from './dexie-blobs';
import type { PulledDoc } from './sync-store';

const PNG = new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13, 73, 72, 68, 82]);
const JPEG = new Uint8Array([0xff, 0xd8, 0xff, 0xe0, 0, 16, 74, 70, 73, 70, 0, 1, 1, 0, 0, 1]);
const HTML = new TextEncoder().encode('<!doctype html><script src="http://127.0.0.1:9/x.js"></script>');
const POSITIONS = ['01KBZ000000000000000000001', '01KBZ000000000000000000002'];

type Shown = { id: string; mimeType: string; size: number };

/** A pulled tool result at `at` showing these images. */
function shown(at: number, images: Shown[]): PulledDoc {
	const message = {
		id: `m${at}`, role: 'tool', tool_call_id: 'c1', content: '[image]', status: 'complete', kind: 'message', created_at: 1,
		tool_result: { server: 'pictures', is_error: false, parts: images.map((image) => ({ type: 'image' as const, ...image })) }
	} satisfies Partial<MessageRow>;
	return { kind: 'message', rev: '1-a', doc: { session_id: 's', position: POSITIONS[at], clock: POSITIONS[at], fields: message, clocks: {}, removed: false } };
}

/** A blob document whose bytes arrived, of the type the sender kept them as. */
const arrived = (id: string, bytes: Uint8Array<ArrayBuffer>, type: string): PulledDoc => ({ kind: 'blob', rev: '1-b', session_id: 's', blob_id: id, type, size: bytes.length, received: new Blob([bytes], { type }) });

describe('the Blobs a pull brings', () => {
	const opened: PalimpsestDb[] = [];
	afterEach(async () => {
		for (const db of opened.splice(0)) await db.delete();
	});
	const kept = async (docs: PulledDoc[], id = 'a') => {
		const db = openProfileDb(`kept-${crypto.randomUUID()}`);
		opened.push(db);
		const row = (await keptBlobs(db, docs)).get(blobDocId('s', id));
		return row ? { type: row.type, blobType: row.data.type, bytes: new Uint8Array(await row.data.arrayBuffer()) } : null;
	};

	it('are kept as the type the check of their bytes gives, not the type the sender kept them as; a page sent as a PNG is refused', async () => {
		expect(await kept([shown(0, [{ id: 'a', mimeType: 'image/png', size: PNG.length }]), arrived('a', PNG, 'text/html')])).toEqual({ type: 'image/png', blobType: 'image/png', bytes: PNG });
		expect(await kept([shown(0, [{ id: 'a', mimeType: 'image/png', size: HTML.length }]), arrived('a', HTML, 'image/png')])).toBeNull();
		expect(await kept([shown(0, [{ id: 'a', mimeType: 'image/png', size: JPEG.length }]), arrived('a', JPEG, 'image/png')])).toBeNull();
	});

	it('are checked by their own type while no message says what they are: a page is kept only as plain text', async () => {
		expect(await kept([arrived('a', PNG, 'image/png')])).toEqual({ type: 'image/png', blobType: 'image/png', bytes: PNG });
		expect(await kept([arrived('a', JPEG, 'image/png')])).toBeNull();
		expect(await kept([arrived('a', HTML, 'text/html')])).toEqual({ type: 'text/plain', blobType: 'text/plain', bytes: HTML });
	});

	it('bring nothing under an id that two messages say different things of, nor of another size than theirs', async () => {
		const twice = [shown(0, [{ id: 'a', mimeType: 'image/png', size: PNG.length }]), shown(1, [{ id: 'a', mimeType: 'image/jpeg', size: JPEG.length }])];
		expect(await kept([...twice, arrived('a', PNG, 'image/png')])).toBeNull();
		expect(await kept([shown(0, [{ id: 'a', mimeType: 'image/png', size: PNG.length + 1 }]), arrived('a', PNG, 'image/png')])).toBeNull();
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
