// Keep in context on a stored row: your messages and the answers in the context can be kept,
// nothing else; letting one go removes the pin; either way sync's outbox records the change.
import 'fake-indexeddb/auto';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openProfileDb, type PalimpsestDb } from './database';
import { appendMessages, listMessages } from './message-verbs';
import { setPinned } from './pin-verbs';
import { createSession } from '../sessions/session-lifecycle';

let db: PalimpsestDb;
let id: string;

beforeEach(async () => {
	db = openProfileDb(`pins-${crypto.randomUUID()}`);
	id = (await createSession({ db, profile: 'home', platform: 'web' }, { provider: 'offline', model: 'offline-mini' })).id;
	await appendMessages(db, id, [
		{ id: 'q', role: 'user', kind: 'message', content: 'Always answer in French.', status: 'complete', created_at: 1 },
		{ id: 'c', role: 'assistant', kind: 'message', content: '', status: 'complete', created_at: 1, tool_calls: [{ id: 't', name: 'clock', arguments: '{}' }] },
		{ id: 'r', role: 'tool', kind: 'message', content: '12:00', status: 'complete', created_at: 1, tool_call_id: 't' },
		{ id: 'a', role: 'assistant', kind: 'message', content: 'Il est midi.', status: 'streaming', created_at: 1 },
		{ id: 'n', role: 'system', kind: 'notice', content: 'A notice.', status: 'complete', created_at: 1 }
	]);
});

afterEach(async () => {
	await db.delete();
});

describe('setPinned', () => {
	it('keeps a message of yours or an answer, and lets it go again, each time noted for sync', async () => {
		await db.sync_outbox.clear();
		expect(await setPinned(db, id, 0, true)).toMatchObject({ id: 'q', pinned: true });
		expect(await setPinned(db, id, 1, true)).toMatchObject({ id: 'c', pinned: true });
		const [question] = await listMessages(db, id);
		expect((await db.sync_outbox.toArray()).map((entry) => entry.id)).toContain(`msg:${id}:${question.position}`);
		await setPinned(db, id, 0, false);
		expect((await listMessages(db, id))[0]).not.toHaveProperty('pinned');
	});

	it('refuses a tool result, a notice, an answer still being written and a message compacted meanwhile', async () => {
		await expect(setPinned(db, id, 2, true)).rejects.toThrow('Only your messages and the answers');
		await expect(setPinned(db, id, 4, true)).rejects.toThrow('Only your messages and the answers');
		await expect(setPinned(db, id, 3, true)).rejects.toThrow('Wait for the answer');
		await db.messages.update([id, 0], { active: 0, compacted_by: 'op' });
		await expect(setPinned(db, id, 0, true)).rejects.toThrow('no longer in the context');
		await expect(setPinned(db, id, 9, true)).rejects.toThrow('no longer exists');
		expect((await listMessages(db, id)).some((row) => row.pinned)).toBe(false);
	});
});
