// What a user attaches to a message (images and text files) lives as Blobs beside the message,
// like a tool's images: deleted, branched and exported with it, and checked on import: an
// attachment's type, size, dimensions and bytes must be what its message says.
import 'fake-indexeddb/auto';
import { afterEach, describe, expect, it } from 'vitest';
import { openProfileDb, type PalimpsestDb } from '../db/database';
import { appendMessages, deleteMessages, readImages } from '../db/message-verbs';
import type { Attachment } from '../db/schema';
import { encodeBase64 } from '../hooks/image-bytes';
import { branchSession } from './branch-session';
import { deleteSessions } from './delete-sessions';
import { exportSessions } from './export-sessions';
import { importSessions } from './import-sessions';
import { createSession } from './session-lifecycle';
import type { SessionContext } from './session-context';
import { ImportError } from './transfer-format';
import { sessionToMarkdown } from './format-markdown';
import { makeTestPdf } from '../attachments/test-pdf';

const PNG = new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13, 73, 72, 68, 82, 0, 0, 0, 1]);
const NOTES = new TextEncoder().encode('# Notes\n\nThé plan, in UTF-8.\n');

const opened: PalimpsestDb[] = [];
afterEach(async () => {
	for (const db of opened.splice(0)) await db.delete();
});

function context(profile = `attachments-${crypto.randomUUID()}`): SessionContext {
	const db = openProfileDb(profile);
	opened.push(db);
	let clock = 1_700_000_000_000;
	return { db, profile, platform: 'web', now: () => (clock += 1000) };
}

const ATTACHED: Attachment[] = [
	{ type: 'image', id: 'photo-1', name: 'photo.png', mimeType: 'image/png', size: PNG.length, width: 1, height: 1 },
	{ type: 'file', id: 'notes-1', name: 'notes.md', mimeType: 'text/markdown', size: NOTES.length }
];

async function sessionWithAttachments(ctx: SessionContext) {
	const { id } = await createSession(ctx, { provider: 'offline', model: 'offline-mini' });
	const rows = await appendMessages(
		ctx.db,
		id,
		[{ id: crypto.randomUUID(), role: 'user', content: 'Look at these.', status: 'complete', kind: 'message', created_at: 1, attachments: ATTACHED }],
		undefined,
		{},
		[
			{ id: 'photo-1', type: 'image/png', data: new Blob([PNG], { type: 'image/png' }) },
			{ id: 'notes-1', type: 'text/markdown', data: new Blob([NOTES], { type: 'text/markdown' }) }
		]
	);
	return { id, rows };
}

const bytes = async (blob: Blob | undefined) => (blob ? new Uint8Array(await blob.arrayBuffer()) : null);

async function exported(ctx: SessionContext) {
	return JSON.parse(await (await exportSessions(ctx.db, { profile: ctx.profile, ids: 'all', kind: 'json' })).blob.text());
}

describe('the attachments of a message', () => {
	it('are deleted with their session and with their message', async () => {
		const ctx = context();
		const { id, rows } = await sessionWithAttachments(ctx);
		const other = await sessionWithAttachments(ctx);
		expect(await ctx.db.blobs.count()).toBe(4);
		await deleteSessions(ctx, [id]);
		expect(await ctx.db.blobs.count()).toBe(2);
		await deleteMessages(ctx.db, other.id, [other.rows[0].seq]);
		expect(await ctx.db.blobs.count()).toBe(0);
		expect(rows[0].attachments).toEqual(ATTACHED);
	});

	it('are copied into a branch', async () => {
		const ctx = context();
		const { id, rows } = await sessionWithAttachments(ctx);
		const branch = await branchSession(ctx, id, rows[0].seq);
		await deleteSessions(ctx, [id]);
		const kept = await readImages(ctx.db, branch.id, ['photo-1', 'notes-1']);
		expect(await bytes(kept.get('photo-1'))).toEqual(PNG);
		expect(await bytes(kept.get('notes-1'))).toEqual(NOTES);
	});

	it('travel through export and import byte for byte, and the Markdown export names them', async () => {
		const from = context();
		const { id } = await sessionWithAttachments(from);
		const file = await exported(from);
		const to = context();
		expect(await importSessions(to.db, to.profile, JSON.stringify(file))).toMatchObject({ sessions_added: 1, fields_dropped: 0 });
		const [row] = await to.db.messages.where('session_id').equals(id).toArray();
		expect(row.attachments).toEqual(ATTACHED);
		const kept = await readImages(to.db, id, ['photo-1', 'notes-1']);
		expect(await bytes(kept.get('photo-1'))).toEqual(PNG);
		expect(await bytes(kept.get('notes-1'))).toEqual(NOTES);
		const markdown = sessionToMarkdown({ session: (await to.db.sessions.get(id))!, messages: [row] });
		expect(markdown).toContain(`*Attached: photo.png (image, 1 × 1, 20 bytes); notes.md (text/markdown, ${NOTES.length} bytes)*`);
	});

	it('are checked on import: type, size, dimensions and bytes; a refused file writes nothing', async () => {
		const from = context();
		await sessionWithAttachments(from);
		const file = await exported(from);
		type Blobs = Array<{ id: string; type: string; data: string }>;
		type Refs = Array<Record<string, unknown>>;
		const variants: Array<[string, (refs: Refs, blobs: Blobs) => void, RegExp]> = [
			['an image without its dimensions', (refs) => delete refs[0].width, /width/],
			['an image wider than any', (refs) => (refs[0].width = 1e9), /width/],
			['an SVG called an image', (refs) => (refs[0].mimeType = 'image/svg+xml'), /mimeType/],
			['a text file called a PDF', (refs) => Object.assign(refs[1], { name: 'paper.pdf', mimeType: 'application/pdf' }), /is of type "text\/markdown", not a file “paper\.pdf” \(application\/pdf\), as message 1 shows it/],
			['a file of another type', (refs) => Object.assign(refs[1], { name: 'tool.exe', mimeType: 'application/x-msdownload' }), /an attachment \(an image, a text file or a PDF\)/],
			['a file larger than a text file may be', (refs) => (refs[1].size = 2 * 1024 * 1024), /size/],
			['bytes that are not UTF-8', (_, blobs) => (blobs[1].data = encodeBase64(new Uint8Array(NOTES.length).fill(0xff))), /is not a file “notes\.md” \(text\/markdown\), as message 1 shows it: its bytes are not UTF-8 text/],
			['a PNG called a text file', (refs, blobs) => {
					refs[1].size = PNG.length;
					blobs[1].data = encodeBase64(PNG);
				}, /its bytes are a PNG image, not a file/],
			['a file of another size than its message says', (refs) => (refs[1].size = 3), /file 2 of session \S+ is not base64 of the 3 bytes message 1 says it has/],
			['a web page called a PNG', (_, blobs) => (blobs[0].data = encodeBase64(new TextEncoder().encode('<html><script>x</script></html>'.slice(0, PNG.length)))), /is not a PNG image \(image\/png\), as message 1 shows it: its bytes are not a PNG, JPEG, GIF or WebP image/],
			['an image shown again as a file of another type', (refs) => refs.push({ type: 'file', id: 'photo-1', name: 'n.html', mimeType: 'text/html', size: PNG.length }), /shows photo-1 as a PNG image \(image\/png\) in message 1 and as a file “n\.html” \(text\/html\) in message 1: one image or file is one thing, of one type/],
			['a missing file', (_, blobs) => blobs.splice(1, 1), /shows file notes-1, which the file does not hold/]
		];
		for (const [what, change, reason] of variants) {
			const copy = structuredClone(file);
			const blobs: Blobs = copy.sessions[0].images;
			blobs.sort((a, b) => (a.id < b.id ? 1 : -1)); // photo-1, then notes-1
			change(copy.sessions[0].messages[0].attachments, blobs);
			const to = context();
			const importing = importSessions(to.db, to.profile, JSON.stringify(copy));
			await expect(importing, what).rejects.toThrow(ImportError);
			await expect(importSessions(to.db, to.profile, JSON.stringify(copy)), what).rejects.toThrow(reason);
			expect(await to.db.sessions.count(), what).toBe(0);
			expect(await to.db.blobs.count(), what).toBe(0);
		}
	});

	it('keep a page attached as a text file, from a file or an earlier version, as plain text: never as a type a browser runs', async () => {
		const from = context();
		await sessionWithAttachments(from);
		const file = await exported(from);
		const page = new TextEncoder().encode('<!doctype html><script src="http://127.0.0.1:9/x.js"></script>');
		Object.assign(file.sessions[0].messages[0].attachments[1], { name: 'n.html', mimeType: 'text/html', size: page.length });
		Object.assign(file.sessions[0].images.find((image: { id: string }) => image.id === 'notes-1'), { type: 'text/html', data: encodeBase64(page) });
		const to = context();
		await importSessions(to.db, to.profile, JSON.stringify(file));
		const kept = (await to.db.blobs.toArray()).find((row) => row.id === 'notes-1')!;
		expect([kept.type, kept.data.type]).toEqual(['text/plain', 'text/plain']);
		expect(await bytes(kept.data)).toEqual(page);
		// The message says so too: exported again, the file imports again as it is.
		const [row] = await to.db.messages.toArray();
		expect(row.attachments?.[1]).toEqual({ type: 'file', id: 'notes-1', name: 'n.html', mimeType: 'text/plain', size: page.length });
		const again = context();
		expect(await importSessions(again.db, again.profile, JSON.stringify(await exported(to)))).toMatchObject({ sessions_added: 1 });
	});
});

describe('an attached PDF', () => {
	const PDF = makeTestPdf([['Quarterly report'], ['Page two']]);
	const REF: Attachment = { type: 'file', id: 'report-1', name: 'report.pdf', mimeType: 'application/pdf', size: PDF.length, pages: 2, text: 'Quarterly report\n\nPage two' };

	async function pdfSession(ctx: SessionContext) {
		const { id } = await createSession(ctx, { provider: 'offline', model: 'offline-mini' });
		const message = { id: crypto.randomUUID(), role: 'user' as const, content: 'Summarise it.', status: 'complete' as const, kind: 'message' as const, created_at: 1, attachments: [REF] };
		await appendMessages(ctx.db, id, [message], undefined, {}, [{ id: 'report-1', type: 'application/pdf', data: new Blob([PDF], { type: 'application/pdf' }) }]);
		return id;
	}

	it('travels through export and import byte for byte, with its pages and text', async () => {
		const from = context();
		const id = await pdfSession(from);
		const to = context();
		expect(await importSessions(to.db, to.profile, JSON.stringify(await exported(from)))).toMatchObject({ sessions_added: 1, fields_dropped: 0 });
		const [row] = await to.db.messages.where('session_id').equals(id).toArray();
		expect(row.attachments).toEqual([REF]);
		expect(await bytes((await readImages(to.db, id, ['report-1'])).get('report-1'))).toEqual(PDF);
	});

	it('is checked on import: its signature, its size, and that it is what its message says', async () => {
		const from = context();
		await pdfSession(from);
		const file = await exported(from);
		type Blob64 = { id: string; type: string; data: string };
		const variants: Array<[string, (ref: Record<string, unknown>, blob: Blob64) => void, RegExp]> = [
			['a zip called a PDF', (_, blob) => (blob.data = encodeBase64(new TextEncoder().encode('PK\u0003\u0004'.padEnd(PDF.length, 'x')))), /is not a file “report\.pdf” \(application\/pdf\), as message 1 shows it: its bytes are not a PDF/],
			['a PDF larger than the Message box takes', (ref) => (ref.size = 21 * 1024 * 1024), /size/],
			['a PDF of another size than its message says', (ref) => (ref.size = 10), /is not base64 of the 10 bytes message 1 says it has/],
			['a PDF whose bytes say another type', (_, blob) => (blob.type = 'text/plain'), /is of type "text\/plain", not a file “report\.pdf” \(application\/pdf\)/],
			['a PDF with text that is not text', (ref) => (ref.text = 42), /text/]
		];
		for (const [what, change, reason] of variants) {
			const copy = structuredClone(file);
			change(copy.sessions[0].messages[0].attachments[0], copy.sessions[0].images[0]);
			const to = context();
			await expect(importSessions(to.db, to.profile, JSON.stringify(copy)), what).rejects.toThrow(reason);
			expect(await to.db.blobs.count(), what).toBe(0);
		}
	});
});
