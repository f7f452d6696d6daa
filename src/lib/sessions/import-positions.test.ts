// An import keeps the positions a file gives its messages and gives one, in seq order, to each
// message of a file from before positions; a file that puts two messages of a session at one
// position is refused.
import 'fake-indexeddb/auto';
import { afterEach, describe, expect, it } from 'vitest';
import { openProfileDb, type PalimpsestDb } from '../db/database';
import { appendMessages, listMessages } from '../db/message-verbs';
import type { MessageRow } from '../db/schema';
import { isPosition, nextPosition, positionTime } from '../sync/position';
import { seededRandom } from '../sync/test-random';
import { exportSessions } from './export-sessions';
import { importSessions } from './import-sessions';
import { createSession } from './session-lifecycle';
import { ImportError } from './transfer-format';

const T = Date.UTC(2025, 0, 1);
const opened: PalimpsestDb[] = [];
afterEach(async () => {
	for (const db of opened.splice(0)) await db.delete();
});

function profileDb(): PalimpsestDb {
	const db = openProfileDb(`positions-${crypto.randomUUID()}`);
	opened.push(db);
	return db;
}

const said = (content: string, created_at: number) => ({ id: crypto.randomUUID(), role: 'user' as const, content, status: 'complete' as const, kind: 'message' as const, created_at });

/** A profile with one session of three messages (and a summary between them), exported as a file. */
async function exported(): Promise<{ file: Record<string, unknown> & { sessions: { messages: Record<string, unknown>[] }[] }; sessionId: string; source: MessageRow[] }> {
	const db = profileDb();
	const session = await createSession({ db, profile: 'home', platform: 'web', now: () => T }, { provider: 'offline', model: 'offline-mini' });
	await appendMessages(db, session.id, [said('one', T + 1), said('two', T + 2), said('three', T + 3)], T + 3);
	await db.messages.add({ ...said('summary', T + 9), kind: 'summary', session_id: session.id, seq: 1.5, position: nextPosition((await listMessages(db, session.id))[2].position, T + 9, seededRandom(1)), active: 1, compacted_by: null });
	const text = await (await exportSessions(db, { profile: 'home', ids: 'all', kind: 'json' })).blob.text();
	return { file: JSON.parse(text), sessionId: session.id, source: await listMessages(db, session.id) };
}

describe('importing messages', () => {
	it('keeps the positions the file gives, and finds each message by its position', async () => {
		const { file, sessionId, source } = await exported();
		const target = profileDb();
		await importSessions(target, 'away', JSON.stringify(file));
		const rows = await listMessages(target, sessionId);
		expect(rows.map((row) => row.position)).toEqual(source.map((row) => row.position));
		for (const row of rows) expect(await target.messages.where('[session_id+position]').equals([sessionId, row.position]).first()).toEqual(row);
	});

	it('gives the messages of a file from before positions new ones, in seq order, from their times', async () => {
		const { file, sessionId } = await exported();
		for (const message of file.sessions[0].messages) delete message.position;
		const target = profileDb();
		await importSessions(target, 'away', JSON.stringify(file));
		const rows = await listMessages(target, sessionId);
		expect(rows.map((row) => row.content)).toEqual(['one', 'two', 'summary', 'three']);
		for (const row of rows) expect(isPosition(row.position)).toBe(true);
		const positions = rows.map((row) => row.position);
		expect(positions).toEqual([...positions].sort());
		expect(rows.map((row) => positionTime(row.position))).toEqual([T + 1, T + 2, T + 9, T + 9]);
		// The imported session goes on after them.
		const [next] = await appendMessages(target, sessionId, [said('four', T + 10)], T + 10);
		expect(next.position > positions.at(-1)!).toBe(true);
	});

	it('gives a message without a position one past those given before it in seq order', async () => {
		const { file, sessionId, source } = await exported();
		delete file.sessions[0].messages[3].position;
		const target = profileDb();
		await importSessions(target, 'away', JSON.stringify(file));
		const rows = await listMessages(target, sessionId);
		expect(rows.slice(0, 3).map((row) => row.position)).toEqual(source.slice(0, 3).map((row) => row.position));
		// "three" comes after the summary in seq order, and the summary's position is the greatest the file gives.
		expect(rows[3].position > source[2].position).toBe(true);
	});

	it('refuses a file that puts two messages of one session at the same position, and imports nothing of it', async () => {
		const { file } = await exported();
		const messages = file.sessions[0].messages;
		messages[1].position = messages[0].position;
		const target = profileDb();
		await expect(importSessions(target, 'away', JSON.stringify(file))).rejects.toThrow(ImportError);
		await expect(importSessions(target, 'away', JSON.stringify(file))).rejects.toThrow(/two messages at position/);
		expect(await target.messages.count()).toBe(0);
		expect(await target.sessions.count()).toBe(0);
	});

	it('takes back a session where a message from another device sorts before the first one here (a seq below 0)', async () => {
		const db = profileDb();
		const session = await createSession({ db, profile: 'home', platform: 'web', now: () => T }, { provider: 'offline', model: 'offline-mini' });
		await appendMessages(db, session.id, [said('mine', T + 5)], T + 5);
		// As sync places a message that sorts before every row here: at a seq below the first.
		const position = nextPosition(undefined, T, seededRandom(2));
		await db.messages.add({ ...said('earlier, on the phone', T), session_id: session.id, seq: -1, position, rank: position, active: 1, compacted_by: null });
		await db.sessions.update(session.id, { message_count: 2 });
		const text = await (await exportSessions(db, { profile: 'home', ids: 'all', kind: 'json' })).blob.text();
		const target = profileDb();
		await importSessions(target, 'away', text);
		expect(await listMessages(target, session.id)).toEqual(await listMessages(db, session.id));
		expect((await listMessages(target, session.id)).map((row) => [row.content, row.seq])).toEqual([['earlier, on the phone', -1], ['mine', 0]]);
	});
});
