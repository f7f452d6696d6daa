import 'fake-indexeddb/auto';
import { RangeSet } from 'dexie';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { watchCommittedChanges, type CommittedChanges } from './committed-changes';
import { PalimpsestDb } from './database';
import { appendMessages, deleteMessages, type NewMessage } from './message-verbs';
import { insertSession } from './session-verbs';
import type { SessionRow } from './schema';
import { testSessionRow } from './test-session-row';
import { testPosition } from './test-position';

let db: PalimpsestDb;
let seen: CommittedChanges[];
let stop: () => void;

beforeEach(() => {
	db = new PalimpsestDb(`changes-${crypto.randomUUID()}`);
	seen = [];
	stop = watchCommittedChanges(db, (changes) => seen.push(changes));
});
afterEach(async () => {
	stop();
	db.close();
	await db.delete();
});

const session = (id: string): SessionRow => testSessionRow(id);

const note = (content: string): NewMessage => ({ id: content, role: 'user', kind: 'message', status: 'complete', created_at: 1, content });

/** What another tab's Dexie sends: the key ranges of its commit, as a plain object after cloning. */
async function noticeFromAnotherTab(parts: Record<string, unknown>): Promise<void> {
	const before = seen.length;
	const channel = new BroadcastChannel('x-storagemutated-1');
	channel.postMessage(parts);
	channel.close();
	await expect.poll(() => seen.length).toBeGreaterThan(before);
}

describe('watchCommittedChanges', () => {
	it("hands over this tab's rows as committed, before the writer goes on", async () => {
		await insertSession(db, session('s1'));
		seen = [];
		await appendMessages(db, 's1', [note('one'), note('two')]);
		expect(seen).toHaveLength(1);
		expect(seen[0].rowsOf('s1').map(({ seq, row }) => [seq, row?.content])).toEqual([
			[0, 'one'],
			[1, 'two']
		]);
		expect(seen[0].sessionRow('s1')).toMatchObject({ next_seq: 2, message_count: 2 });
		expect(seen[0].unseenSeqs('s1')).toEqual([]);
		expect(seen[0].rowsOf('s2')).toEqual([]);

		await deleteMessages(db, 's1', [0]);
		expect(seen[1].rowsOf('s1')).toEqual([{ seq: 0, row: null }]);
	});

	it('asks for a session to be read again after a range delete, and announces nothing for an aborted write', async () => {
		await insertSession(db, session('s1'));
		await appendMessages(db, 's1', [note('one')]);
		seen = [];
		await db.messages.where('[session_id+seq]').between(['s1', -Infinity], ['s1', Infinity]).delete();
		expect(seen.at(-1)?.unseenSeqs('s1')).toEqual([{ from: -Infinity, to: Infinity }]);
		seen = [];
		await expect(
			db.transaction('rw', db.messages, async () => {
				await db.messages.put({ ...note('gone'), session_id: 's1', seq: 5, position: testPosition(5), active: 1, compacted_by: null });
				throw new Error('changed my mind');
			})
		).rejects.toThrow('changed my mind');
		expect(seen).toEqual([]);
	});

	it("turns another tab's key ranges into the seq ranges of each session", async () => {
		const rows = new RangeSet().addKeys([
			['s1', 3],
			['s1', 4.5]
		]);
		rows.add({ from: ['s0', 9], to: ['s2', 1] });
		await noticeFromAnotherTab({ [`idb://${db.name}/messages/`]: rows, [`idb://${db.name}/sessions/`]: new RangeSet().addKey('s1') });
		const changes = seen.at(-1) as CommittedChanges;
		expect(changes.rowsOf('s1')).toEqual([]);
		expect(changes.unseenSeqs('s1')).toEqual([{ from: -Infinity, to: Infinity }]);
		expect(changes.unseenSeqs('s2')).toEqual([{ from: -Infinity, to: 1 }]);
		expect(changes.unseenSeqs('s3')).toEqual([]);
		expect(changes.sessionUnseen('s1')).toBe(true);
		expect(changes.sessionUnseen('s2')).toBe(false);

		await noticeFromAnotherTab({ [`idb://${db.name}/messages/`]: new RangeSet().addKeys([['s3', 3], ['s3', 4.5]]) });
		expect((seen.at(-1) as CommittedChanges).unseenSeqs('s3')).toEqual([
			{ from: 3, to: 3 },
			{ from: 4.5, to: 4.5 }
		]);
	});

	it('says when anything may have changed', async () => {
		await noticeFromAnotherTab({ all: { from: -Infinity, to: [[]], d: 1 } });
		expect(seen.at(-1)?.everything).toBe(true);
	});
});
