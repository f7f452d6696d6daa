import 'fake-indexeddb/auto';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { PalimpsestDb } from '../../db/database';
import { appendMessages, deleteMessages, listMessages } from '../../db/message-verbs';
import { simulateFullDisk, type FullDisk } from '../../db/test-full-disk';
import { createSession } from '../../sessions/session-lifecycle';
import { UnsavedAnswers } from './unsaved-answers.svelte';

let db: PalimpsestDb;
let disk: FullDisk;
let unsaved: UnsavedAnswers;
beforeEach(async () => {
	db = new PalimpsestDb(`unsaved-${crypto.randomUUID()}`);
	disk = await simulateFullDisk(db);
	unsaved = new UnsavedAnswers(db, 20);
});
afterEach(async () => {
	unsaved.stop();
	db.close();
	await db.delete();
});

const full = new DOMException('The quota has been exceeded.', 'QuotaExceededError');

async function streamingRow() {
	const session = await createSession({ db, profile: 'default', platform: 'web' }, { provider: 'offline', model: 'm' });
	const [row] = await appendMessages(db, session.id, [
		{ id: 'a', role: 'assistant', content: 'The first', status: 'streaming', kind: 'message', created_at: 1 }
	]);
	return row;
}

describe('an answer storage refused to keep', () => {
	it('is shown from memory as failed, then stored with its whole text and the reason once storage works again', async () => {
		const row = await streamingRow();
		disk.fill();
		unsaved.keep({ key: [row.session_id, row.seq], text: 'The first words and the rest', error: 'This answer is not saved: …', cause: full });
		const [shown] = unsaved.overlay(await listMessages(db, row.session_id));
		expect(shown).toMatchObject({ content: 'The first words and the rest', status: 'error', error: 'This answer is not saved: …' });
		expect(unsaved.has(row)).toBe(true);

		await new Promise((r) => setTimeout(r, 60));
		expect((await listMessages(db, row.session_id))[0]).toMatchObject({ status: 'streaming', content: 'The first' });
		disk.free();
		await vi.waitFor(() => expect(unsaved.has(row)).toBe(false));
		const [stored] = await listMessages(db, row.session_id);
		expect(stored).toMatchObject({ status: 'error', content: 'The first words and the rest' });
		expect(stored.error).toMatch(/could not be stored while it was written: storage is full/);
	});

	it('is dropped without bringing anything back when its row is gone (Retry or deletion)', async () => {
		const row = await streamingRow();
		await deleteMessages(db, row.session_id, [row.seq]);
		unsaved.keep({ key: [row.session_id, row.seq], text: 'gone', error: 'not saved', cause: full });
		await vi.waitFor(() => expect(unsaved.has(row)).toBe(false));
		expect(await listMessages(db, row.session_id)).toEqual([]);
	});
});
