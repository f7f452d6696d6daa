import 'fake-indexeddb/auto';
import { afterEach, describe, expect, it } from 'vitest';
import { Dexie, PalimpsestDb } from './database';
import type { MessageRow, SessionRow } from './schema';
import { showVersion, startVersion, versionPointOf, VersionConflictError } from './version-verbs';
import { listActiveMessages } from './compaction-verbs';
import { appendMessages } from './message-verbs';
import { testPosition } from './test-position';

let db: PalimpsestDb;
afterEach(async () => {
	db.close();
	await Dexie.delete(db.name);
});

const ID = 's1';

async function open(texts: string[]): Promise<void> {
	db = new PalimpsestDb(`test-${crypto.randomUUID()}`);
	const session: SessionRow = {
		id: ID, profile: 'default', title: 't', title_source: 'user', session_key: 'web:default:s1', created_at: 1, last_activity_at: 1,
		ended_at: null, end_reason: null, parent_session_id: null, parent_kind: null, archived: 0, pinned: 0, provider: 'offline',
		model: 'offline-mini', message_count: 0, token_estimate: 0, next_seq: 0, compaction: { failures: 0, cooldown_until: 0, turns_since_micro: 0 }
	};
	await db.sessions.add(session);
	await appendMessages(db, ID, texts.map((content, i) => message(content, i % 2 ? 'assistant' : 'user')));
}

function message(content: string, role: 'user' | 'assistant' = 'user') {
	return { id: crypto.randomUUID(), role, content, status: 'complete' as const, kind: 'message' as const, created_at: 1 };
}

const shown = async () => (await listActiveMessages(db, ID)).map((row: MessageRow) => row.content);
const point = async (after: number | null) => versionPointOf((await db.sessions.get(ID))!, after);

describe('versions of a conversation', () => {
	it('an edit puts the rest away as version 1 and starts version 2; switching swaps them back and forth', async () => {
		await open(['q1', 'a1', 'q2', 'a2']);
		// Edit q2 (seq 2), which follows a1 (seq 1).
		expect((await startVersion(db, ID, 1, 2, [message('q2 edited')])).point).toEqual({ after: 1, shown: 2, count: 2 });
		expect(await shown()).toEqual(['q1', 'a1', 'q2 edited']);
		await appendMessages(db, ID, [message('a2 again', 'assistant')]);

		await showVersion(db, ID, 1, 1);
		expect(await shown()).toEqual(['q1', 'a1', 'q2', 'a2']);
		expect(await point(1)).toEqual({ after: 1, shown: 1, count: 2 });
		await showVersion(db, ID, 1, 2);
		expect(await shown()).toEqual(['q1', 'a1', 'q2 edited', 'a2 again']);
		// Nothing was deleted: every row is still stored.
		expect(await db.messages.count()).toBe(6);
	});

	it('keeps versions inside versions: an answer regenerated within version 1 comes back with it', async () => {
		await open(['q1', 'a1']);
		// Regenerate a1 (after q1, seq 0).
		await startVersion(db, ID, 0, 1);
		await appendMessages(db, ID, [message('a1 second', 'assistant')]);
		// Then edit q1, from the very start.
		await startVersion(db, ID, null, 0, [message('q1 edited')]);
		expect(await shown()).toEqual(['q1 edited']);
		await showVersion(db, ID, null, 1);
		expect(await shown()).toEqual(['q1', 'a1 second']);
		await showVersion(db, ID, 0, 1);
		expect(await shown()).toEqual(['q1', 'a1']);
		expect(await point(0)).toEqual({ after: 0, shown: 1, count: 2 });
	});

	it('refuses when the conversation changed: the row acted on or the place is gone, or a compaction came between', async () => {
		await open(['q1', 'a1', 'q2', 'a2']);
		await expect(startVersion(db, ID, 1, 99)).rejects.toBeInstanceOf(VersionConflictError);
		await expect(startVersion(db, ID, 42, 2)).rejects.toBeInstanceOf(VersionConflictError);
		await startVersion(db, ID, 1, 2, [message('q2 edited')]);
		await db.messages.put({ ...message('summary'), session_id: ID, seq: 3.5, position: testPosition(9), kind: 'summary', active: 1, compacted_by: null });
		await expect(showVersion(db, ID, 1, 1)).rejects.toThrow('compacted');
		// Refused means unchanged.
		expect(await shown()).toEqual(['q1', 'a1', 'summary', 'q2 edited']);
		expect(await point(1)).toEqual({ after: 1, shown: 2, count: 2 });
	});
});
