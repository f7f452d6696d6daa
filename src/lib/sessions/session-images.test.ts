// The images a session's messages show (a tool's result) live as Blobs beside its messages:
// written with their row, copied with a branch, carried byte for byte through export and
// import, checked on import like every other field, and deleted with their session or message.
import 'fake-indexeddb/auto';
import { afterEach, describe, expect, it } from 'vitest';
import { openProfileDb, type PalimpsestDb } from '../db/database';
import { commitRotation } from '../db/compaction-verbs';
import { appendMessages, deleteMessages, readImages } from '../db/message-verbs';
import type { MessageRow } from '../db/schema';
import { encodeBase64 } from '../hooks/image-bytes';
import { branchSession } from './branch-session';
import { deleteSessions } from './delete-sessions';
import { exportSessions } from './export-sessions';
import { importSessions } from './import-sessions';
import { createSession } from './session-lifecycle';
import type { SessionContext } from './session-context';
import { ImportError } from './transfer-format';

const PNG = new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13, 73, 72, 68, 82, 0, 0, 0, 1]);
const JPEG = new Uint8Array([0xff, 0xd8, 0xff, 0xe0, 0, 16, 74, 70, 73, 70]);

const opened: PalimpsestDb[] = [];
afterEach(async () => {
	for (const db of opened.splice(0)) await db.delete();
});

function context(profile = `images-${crypto.randomUUID()}`): SessionContext {
	const db = openProfileDb(profile);
	opened.push(db);
	let clock = 1_700_000_000_000;
	return { db, profile, platform: 'web', now: () => (clock += 1000) };
}

const base = { status: 'complete' as const, kind: 'message' as const, created_at: 1 };

/** A session where a tool returned two images. */
async function sessionWithImages(ctx: SessionContext): Promise<{ id: string; rows: MessageRow[] }> {
	const { id } = await createSession(ctx, { provider: 'offline', model: 'offline-mini' });
	const rows = await appendMessages(
		ctx.db,
		id,
		[
			{ ...base, id: crypto.randomUUID(), role: 'user', content: 'Show me.' },
			{ ...base, id: crypto.randomUUID(), role: 'assistant', content: '', tool_calls: [{ id: 'c1', name: 'pictures', arguments: '{}' }] },
			{
				...base,
				id: crypto.randomUUID(),
				role: 'tool',
				tool_call_id: 'c1',
				content: '[image: image/png, 1 KB] [image: image/jpeg, 1 KB]',
				tool_result: {
					server: 'pictures',
					is_error: false,
					parts: [
						{ type: 'image', id: 'png-1', mimeType: 'image/png', size: PNG.length, width: 1, height: 1 },
						{ type: 'image', id: 'jpeg-1', mimeType: 'image/jpeg', size: JPEG.length }
					]
				}
			}
		],
		undefined,
		{},
		[
			{ id: 'png-1', type: 'image/png', data: new Blob([PNG], { type: 'image/png' }) },
			{ id: 'jpeg-1', type: 'image/jpeg', data: new Blob([JPEG], { type: 'image/jpeg' }) }
		]
	);
	return { id, rows };
}

const bytes = async (blob: Blob | undefined) => (blob ? new Uint8Array(await blob.arrayBuffer()) : null);

describe('the images of a session', () => {
	it('are written with their message, and go with the session when it is deleted', async () => {
		const ctx = context();
		const { id } = await sessionWithImages(ctx);
		const other = await sessionWithImages(ctx);
		expect(await ctx.db.blobs.count()).toBe(4);
		expect(await bytes((await readImages(ctx.db, id, ['png-1'])).get('png-1'))).toEqual(PNG);
		await deleteSessions(ctx, [id]);
		expect(await ctx.db.blobs.count()).toBe(2);
		expect((await readImages(ctx.db, other.id, ['png-1', 'jpeg-1'])).size).toBe(2);
	});

	it('go with their message when it alone is removed', async () => {
		const ctx = context();
		const { id, rows } = await sessionWithImages(ctx);
		await deleteMessages(ctx.db, id, [rows[2].seq]);
		expect(await ctx.db.blobs.count()).toBe(0);
	});

	it('stay while another row still shows them (a compaction keeps a copy of a row that stops sending them)', async () => {
		const ctx = context();
		const { id, rows } = await sessionWithImages(ctx);
		const { session_id: _s, seq: _q, position: _p, ...copy } = rows[2];
		const [again] = await appendMessages(ctx.db, id, [{ ...copy, id: crypto.randomUUID() }]);
		await deleteMessages(ctx.db, id, [rows[2].seq]);
		expect(await ctx.db.blobs.count()).toBe(2);
		await deleteMessages(ctx.db, id, [again.seq]);
		expect(await ctx.db.blobs.count()).toBe(0);
	});

	it('are copied into a branch, which keeps them after the original is deleted', async () => {
		const ctx = context();
		const { id, rows } = await sessionWithImages(ctx);
		const branch = await branchSession(ctx, id, rows[2].seq);
		await deleteSessions(ctx, [id]);
		expect(await bytes((await readImages(ctx.db, branch.id, ['jpeg-1'])).get('jpeg-1'))).toEqual(JPEG);
	});

	it('go with the kept tail into the session a rotation continues in, as its own copies', async () => {
		const ctx = context();
		const { id, rows } = await sessionWithImages(ctx);
		const parent = (await ctx.db.sessions.get(id))!;
		const child = await commitRotation(ctx.db, {
			parentId: id,
			endedAt: 5,
			child: { ...parent, id: 'child', parent_session_id: id, parent_kind: 'compression' },
			rows: rows.slice(1).map((row) => ({ ...row })),
			parentCompaction: parent.compaction
		});
		expect(await bytes((await readImages(ctx.db, child.id, ['png-1'])).get('png-1'))).toEqual(PNG);
		expect(await ctx.db.blobs.where('[session_id+id]').between([child.id, ''], [child.id, '\uffff']).count()).toBe(2);
	});

	it('travel through export and import byte for byte, as base64 in the file', async () => {
		const from = context();
		const { id } = await sessionWithImages(from);
		const file = await (await exportSessions(from.db, { profile: from.profile, ids: 'all', kind: 'json' })).blob.text();
		expect(file).toContain(encodeBase64(PNG));
		const to = context();
		expect(await importSessions(to.db, to.profile, file)).toMatchObject({ sessions_added: 1, messages_added: 3, fields_dropped: 0 });
		const images = await readImages(to.db, id, ['png-1', 'jpeg-1']);
		expect(await bytes(images.get('png-1'))).toEqual(PNG);
		expect(await bytes(images.get('jpeg-1'))).toEqual(JPEG);
		expect(images.get('jpeg-1')?.type).toBe('image/jpeg');
	});

	it('are checked on import: a disguised file, a wrong size or a missing image refuses the file and writes nothing', async () => {
		const from = context();
		await sessionWithImages(from);
		const file = JSON.parse(await (await exportSessions(from.db, { profile: from.profile, ids: 'all', kind: 'json' })).blob.text());
		type Image = { id: string; type: string; data: string };
		const png = (images: Image[]) => images.find((image) => image.id === 'png-1')!;
		const variants: Array<[string, (images: Image[]) => void, RegExp]> = [
			['a web page called a PNG', (images) => (png(images).data = encodeBase64(new TextEncoder().encode('<html><script>x</script></html> '.slice(0, PNG.length)))), /its bytes are not a PNG, JPEG, GIF or WebP image/],
			['an SVG', (images) => (png(images).type = 'image/svg+xml'), /is of type "image\/svg\+xml", not a PNG image \(image\/png\)/],
			['bytes that are not base64', (images) => (png(images).data = '%%%%'), /is not base64/],
			['a missing image', (images) => images.splice(images.indexOf(png(images)), 1), /shows image png-1, which the file does not hold/]
		];
		for (const [what, change, reason] of variants) {
			const copy = structuredClone(file);
			change(copy.sessions[0].images);
			const to = context();
			const importing = importSessions(to.db, to.profile, JSON.stringify(copy));
			await expect(importing, what).rejects.toThrow(ImportError);
			await expect(importSessions(to.db, to.profile, JSON.stringify(copy)), what).rejects.toThrow(reason);
			expect(await to.db.sessions.count(), what).toBe(0);
			expect(await to.db.blobs.count(), what).toBe(0);
		}
	});
});
