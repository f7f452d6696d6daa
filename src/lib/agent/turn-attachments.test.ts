// A message with attachments: stored with their bytes in one write, sent to the model with
// the bytes read back (the image as an image, the text file as text under its name), and shown
// to plugins in conversation_history by type, name and size only.
import 'fake-indexeddb/auto';
import { afterEach, beforeEach, expect, it } from 'vitest';
import { PalimpsestDb } from '../db/database';
import { listMessages, readImages } from '../db/message-verbs';
import type { Attachment } from '../db/schema';
import type { HistoryMessage } from '../hooks/hook-payloads';
import { createSession } from '../sessions/session-lifecycle';
import { runTurn } from './run-turn';
import { say, scripted } from './compaction-fixtures';
import type { TurnHooks } from './turn-deps';

let db: PalimpsestDb;
beforeEach(() => {
	db = new PalimpsestDb(`turn-attachments-${crypto.randomUUID()}`);
});
afterEach(async () => {
	db.close();
	await db.delete();
});

const PNG = new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 1, 2, 3]);
const NOTES = new TextEncoder().encode('Kyoto, 3 days.');
const refs: Attachment[] = [
	{ type: 'image', id: 'img', name: 'photo.png', mimeType: 'image/png', size: PNG.length, width: 4, height: 3 },
	{ type: 'file', id: 'txt', name: 'plan.txt', mimeType: 'text/plain', size: NOTES.length }
];
const blobs = [
	{ id: 'img', type: 'image/png', data: new Blob([PNG], { type: 'image/png' }) },
	{ id: 'txt', type: 'text/plain', data: new Blob([NOTES], { type: 'text/plain' }) }
];

it('stores a message with its attachments, sends their bytes, and shows plugins only their names and sizes', async () => {
	const { provider, requests } = scripted(() => say('ok'));
	const histories: HistoryMessage[][] = [];
	const hooks: TurnHooks = {
		collect: async (_name, payload) => (histories.push(payload.conversation_history), []),
		notify: async () => {},
		decide: async () => ({ block: false })
	};
	const { id } = await createSession({ db, profile: 'default', platform: 'web' }, { provider: 'scripted', model: 'm' });
	const deps = { db, provider, model: 'm', profile: 'default', platform: 'web', systemPrompt: 'SYS', checkpointMs: 0, hooks };
	await runTurn(deps, { sessionId: id, text: 'Look.', attachments: { refs, blobs } });

	const [user] = await listMessages(db, id);
	expect(user.attachments).toEqual(refs);
	expect((await readImages(db, id, ['img', 'txt'])).size).toBe(2);
	expect(requests[0].messages[1]).toEqual({
		role: 'user',
		content: 'Look.',
		images: [{ mimeType: 'image/png', data: btoa(String.fromCharCode(...PNG)) }],
		files: [{ name: 'plan.txt', text: 'Kyoto, 3 days.' }]
	});

	await runTurn(deps, { sessionId: id, text: 'And?' });
	expect(histories[1][0]).toEqual({
		role: 'user',
		content: 'Look.',
		attachments: [
			{ type: 'image', name: 'photo.png', size: PNG.length },
			{ type: 'file', name: 'plan.txt', size: NOTES.length }
		]
	});
});

it('titles a session by its attachments when the first message has no text', async () => {
	const { provider } = scripted(() => say('ok'));
	const { id } = await createSession({ db, profile: 'default', platform: 'web' }, { provider: 'scripted', model: 'm' });
	await runTurn({ db, provider, model: 'm', profile: 'default', platform: 'web', checkpointMs: 0 }, { sessionId: id, text: '', attachments: { refs, blobs } });
	expect((await db.sessions.get(id))?.title).toBe('photo.png, plan.txt');
});

it('sends an attached PDF as its bytes and the text read when it was attached, and shows plugins no text', async () => {
	const { provider, requests } = scripted(() => say('ok'));
	const histories: HistoryMessage[][] = [];
	const hooks: TurnHooks = {
		collect: async (_name, payload) => (histories.push(payload.conversation_history), []),
		notify: async () => {},
		decide: async () => ({ block: false })
	};
	const PDF = new TextEncoder().encode('%PDF-1.4 a small document');
	const pdf: Attachment = { type: 'file', id: 'doc', name: 'report.pdf', mimeType: 'application/pdf', size: PDF.length, pages: 1, text: 'Quarterly report' };
	const { id } = await createSession({ db, profile: 'default', platform: 'web' }, { provider: 'scripted', model: 'm' });
	const deps = { db, provider, model: 'm', profile: 'default', platform: 'web', checkpointMs: 0, hooks };
	await runTurn(deps, { sessionId: id, text: 'Sum it up.', attachments: { refs: [pdf], blobs: [{ id: 'doc', type: 'application/pdf', data: new Blob([PDF], { type: 'application/pdf' }) }] } });
	expect(requests[0].messages.at(-1)?.files).toEqual([{ name: 'report.pdf', text: 'Quarterly report', pdf: btoa(String.fromCharCode(...PDF)) }]);

	await runTurn(deps, { sessionId: id, text: 'And?' });
	expect(histories[1][0].attachments).toEqual([{ type: 'file', name: 'report.pdf', size: PDF.length }]);
});
