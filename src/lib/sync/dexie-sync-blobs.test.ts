// The images of messages travel by sync as CouchDB attachments of their messages' documents:
// two devices, each a profile database as the app keeps it, through a real CouchDB-compatible
// server. An image arrives byte for byte, written with its message; one above the limit stays
// on its device and the other says why; an image still on its way arrives with a later pass;
// deleting the session removes it everywhere, the server included.
import 'fake-indexeddb/auto';
import { describe, expect, it } from 'vitest';
import { openProfileDb } from '../db/database';
import { appendMessages, deleteMessages, listMessages } from '../db/message-verbs';
import { deleteSessions } from '../sessions/delete-sessions';
import { createSession } from '../sessions/session-lifecycle';
import type { SessionContext } from '../sessions/session-context';
import { CouchClient } from './couch-client';
import { createSyncStore } from './dexie-sync-store';
import { messageDocId } from './document-ids';
import { SyncLoop } from './sync-loop';
import { useCouchDatabases } from './test-couch';

const { opened, newDatabase } = useCouchDatabases('blobs');

/** A PNG of `size` bytes: its signature, then bytes that differ from one image to the next. */
function png(size: number, seed: number): Uint8Array<ArrayBuffer> {
	const bytes = new Uint8Array(size);
	bytes.set([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
	for (let i = 8; i < size; i++) bytes[i] = (i * 31 + seed) & 0xff;
	return bytes;
}

/** A device: its profile database, a sync loop to the server, and a limit for synced attachments in bytes. */
function device(serverDb: string, name: string, { limit = 10 * 1024 * 1024, fetch: fetchImpl }: { limit?: number; fetch?: typeof fetch } = {}) {
	const profile = `${name}-${crypto.randomUUID()}`;
	const db = openProfileDb(profile);
	opened.push(db);
	let clock = Date.UTC(2026, 0, 1);
	const ctx: SessionContext = { db, profile, platform: 'web', now: () => (clock += 1000) };
	const loop = new SyncLoop({ store: createSyncStore(db, { profile, attachmentLimit: () => limit }), client: new CouchClient({ url: serverDb, fetch: fetchImpl }) });
	return {
		db,
		ctx,
		sync: () => loop.syncOnce(),
		/** A tool's result showing these images, stored with their bytes as the app stores them. */
		showImages: (sessionId: string, images: Uint8Array<ArrayBuffer>[]) => {
			const ids = images.map(() => crypto.randomUUID());
			return appendMessages(
				db,
				sessionId,
				[
					{
						id: crypto.randomUUID(),
						role: 'tool',
						tool_call_id: 'c1',
						content: '[image]',
						status: 'complete',
						kind: 'message',
						created_at: clock,
						tool_result: { server: 'pictures', is_error: false, parts: images.map((bytes, at) => ({ type: 'image' as const, id: ids[at], mimeType: 'image/png', size: bytes.length })) }
					}
				],
				clock,
				{},
				images.map((bytes, at) => ({ id: ids[at], type: 'image/png', data: new Blob([bytes], { type: 'image/png' }) }))
			).then(() => ids);
		},
		bytes: async (sessionId: string, id: string) => {
			const row = await db.blobs.get([sessionId, id]);
			return row ? { type: row.type, bytes: new Uint8Array(await row.data.arrayBuffer()) } : null;
		}
	};
}

describe("a message's images, synced as attachments of its document", () => {
	it('an image made on one device arrives on the other byte for byte, with its message', async () => {
		const url = await newDatabase();
		const [a, b] = [device(url, 'a'), device(url, 'b')];
		const { id } = await createSession(a.ctx, { provider: 'offline', model: 'offline-mini' });
		const image = png(300_000, 1);
		const [imageId] = await a.showImages(id, [image]);
		await a.sync();
		await b.sync();
		expect(await b.bytes(id, imageId)).toEqual({ type: 'image/png', bytes: image });
		const [row] = await listMessages(b.db, id);
		expect(row.tool_result?.parts).toEqual([{ type: 'image', id: imageId, mimeType: 'image/png', size: image.length }]);
		expect(row.blobs_not_synced).toBeUndefined();
		// Nothing more to send or fetch: the image went once, and its own device does not fetch it back.
		expect((await a.sync()).pushed).toBe(0);
		expect((await b.sync()).pushed).toBe(0);
	});

	it('an image above the limit stays on its device; the other shows the message and says why', async () => {
		const url = await newDatabase();
		const [a, b] = [device(url, 'a', { limit: 100_000 }), device(url, 'b', { limit: 50_000 })];
		const { id } = await createSession(a.ctx, { provider: 'offline', model: 'offline-mini' });
		const [small, large, betweenLimits] = [png(20_000, 1), png(150_000, 2), png(70_000, 3)];
		const [smallId, largeId, betweenId] = await a.showImages(id, [small, large, betweenLimits]);
		await a.sync();
		await b.sync();
		expect(await b.bytes(id, smallId)).toEqual({ type: 'image/png', bytes: small });
		expect(await b.bytes(id, largeId)).toBeNull();
		expect(await b.bytes(id, betweenId)).toBeNull();
		const [row] = await listMessages(b.db, id);
		expect(row.blobs_not_synced).toEqual([
			{ id: largeId, size: large.length, reason: 'sender-limit', limit: 100_000 },
			{ id: betweenId, size: betweenLimits.length, reason: 'own-limit', limit: 50_000 }
		]);
		// The large one never reached the server: the document holds the two within a's limit.
		const [position] = (await listMessages(a.db, id)).map((each) => each.position);
		const doc = await (await fetch(`${url}/${encodeURIComponent(messageDocId(id, position))}`)).json();
		expect(Object.keys(doc._attachments).sort()).toEqual([smallId, betweenId].sort());
		// Its own device keeps it.
		expect(await a.bytes(id, largeId)).toEqual({ type: 'image/png', bytes: large });
	});

	it('an image still on its way when its message arrives comes with a later pass', async () => {
		const url = await newDatabase();
		let cut = true;
		// The connection drops as a's image starts to upload, after its message went.
		const flaky: typeof fetch = (input, init) => (cut && init?.method === 'PUT' ? Promise.reject(new TypeError('network down')) : fetch(input, init));
		const [a, b] = [device(url, 'a', { fetch: flaky }), device(url, 'b')];
		const { id } = await createSession(a.ctx, { provider: 'offline', model: 'offline-mini' });
		const image = png(5_000, 4);
		const [imageId] = await a.showImages(id, [image]);
		await expect(a.sync()).rejects.toThrow(/reach the sync server/);
		await b.sync();
		const [waiting] = await listMessages(b.db, id);
		expect(waiting.blobs_not_synced).toEqual([{ id: imageId, size: image.length, reason: 'arriving' }]);
		cut = false;
		await a.sync();
		await b.sync();
		expect(await b.bytes(id, imageId)).toEqual({ type: 'image/png', bytes: image });
		expect((await listMessages(b.db, id))[0].blobs_not_synced).toBeUndefined();
	});

	it('deleting the session removes its images on both devices and on the server, and nothing comes back', async () => {
		const url = await newDatabase();
		const [a, b] = [device(url, 'a'), device(url, 'b')];
		const { id } = await createSession(a.ctx, { provider: 'offline', model: 'offline-mini' });
		const [imageId] = await a.showImages(id, [png(10_000, 5)]);
		await a.sync();
		await b.sync();
		expect(await b.db.blobs.count()).toBe(1);
		const [position] = (await listMessages(a.db, id)).map((each) => each.position);
		const docUrl = `${url}/${encodeURIComponent(messageDocId(id, position))}`;
		await deleteSessions(a.ctx, [id]);
		for (const each of [a, b, a, b]) await each.sync();
		for (const each of [a, b]) {
			expect(await each.db.blobs.count()).toBe(0);
			expect(await each.db.sessions.get(id)).toBeUndefined();
		}
		expect((await fetch(docUrl)).status).toBe(404);
		expect((await fetch(`${docUrl}/${encodeURIComponent(imageId)}`)).status).toBe(404);
	});

	it('a message removed on one device takes its image with it on the other, and on the server', async () => {
		const url = await newDatabase();
		const [a, b] = [device(url, 'a'), device(url, 'b')];
		const { id } = await createSession(a.ctx, { provider: 'offline', model: 'offline-mini' });
		const [kept] = await a.showImages(id, [png(4_000, 6)]);
		const [removed] = await a.showImages(id, [png(4_000, 7)]);
		await a.sync();
		await b.sync();
		expect(await b.db.blobs.count()).toBe(2);
		const [, last] = await listMessages(a.db, id);
		await deleteMessages(a.db, id, [last.seq]);
		for (const each of [a, b, a, b]) await each.sync();
		for (const each of [a, b]) {
			expect((await each.db.blobs.toArray()).map((row) => row.id)).toEqual([kept]);
			expect(await listMessages(each.db, id)).toHaveLength(1);
		}
		expect((await fetch(`${url}/${encodeURIComponent(messageDocId(id, last.position))}/${encodeURIComponent(removed)}`)).status).toBe(404);
	});

	it('keeps no bytes that are not what their message says', async () => {
		const url = await newDatabase();
		const [a, b] = [device(url, 'a'), device(url, 'b')];
		const { id } = await createSession(a.ctx, { provider: 'offline', model: 'offline-mini' });
		// A page the browser would run, sent as the "image" a message names.
		const page = new TextEncoder().encode('<html><script>alert(1)</script></html>'.padEnd(64, ' '));
		const [imageId] = await a.showImages(id, [page as Uint8Array<ArrayBuffer>]);
		await a.sync();
		await b.sync();
		expect(await b.bytes(id, imageId)).toBeNull();
		expect((await listMessages(b.db, id))[0].blobs_not_synced).toEqual([{ id: imageId, size: page.length, reason: 'refused' }]);
	});
});
