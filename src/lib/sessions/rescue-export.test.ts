import 'fake-indexeddb/auto';
import { afterEach, describe, expect, it } from 'vitest';
import { openProfileDb, profileDbName } from '../db/database';
import { listMessages } from '../db/message-verbs';
import { rescueExport } from './rescue-export';
import { importSessions } from './import-sessions';
import { parseExportFile } from './validate-import';

const cleanup: string[] = [];
afterEach(async () => {
	for (const name of cleanup.splice(0)) {
		await new Promise((done) => {
			const request = indexedDB.deleteDatabase(name);
			request.onsuccess = request.onerror = done;
		});
	}
});

function rawOpen(name: string, version?: number, upgrade?: (db: IDBDatabase) => void): Promise<IDBDatabase> {
	return new Promise((resolve, reject) => {
		const request = indexedDB.open(name, version);
		request.onupgradeneeded = () => upgrade?.(request.result);
		request.onsuccess = () => resolve(request.result);
		request.onerror = () => reject(request.error);
	});
}

describe('exporting what is readable from a database the app cannot open', () => {
	it('reads a newer version’s rows as they are, without changing it, into a file Import takes', async () => {
		const profile = `newer-${crypto.randomUUID()}`;
		cleanup.push(profileDbName(profile));
		const newer = await rawOpen(profileDbName(profile), 80, (db) => {
			const sessions = db.createObjectStore('sessions', { keyPath: 'id' });
			const messages = db.createObjectStore('messages', { keyPath: ['session_id', 'seq'] });
			db.createObjectStore('future_things', { keyPath: 'id' });
			sessions.put({ id: 's1', title: 'Rivers', session_key: 'web:x:s1', created_at: 10, last_activity_at: 20, next_seq: 2, mood: 'a field from the future' });
			messages.put({ session_id: 's1', seq: 0, id: 'u1', role: 'user', content: 'Tell me about rivers', status: 'complete', kind: 'message', active: 1, created_at: 11 });
			messages.put({ session_id: 's1', seq: 1, id: 'a1', role: 'assistant', content: 'Rivers run', status: 'streaming', created_at: 12 });
			// A message whose session row is gone.
			messages.put({ session_id: 'lost', seq: 0, id: 'u2', role: 'user', content: 'orphaned words', status: 'complete', kind: 'message', active: 1, created_at: 5 });
		});
		newer.close();

		const result = await rescueExport(profile, 1_700_000_000_000);
		expect(result).toMatchObject({ sessions: 2, messages: 3, problems: [] });
		expect(result.filename).toBe(`palimpsest-${profile}-2023-11-14-recovered.json`);
		const text = await result.blob.text();
		expect(JSON.parse(text).sessions[1].session.mood).toBe('a field from the future');
		// Import takes the fields this app knows and leaves the newer version's own out.
		const { entries, droppedFields } = parseExportFile(text);
		expect(entries.map((e) => e.session.title)).toEqual(['Recovered messages', 'Rivers']);
		expect(entries[1].session).toMatchObject({ archived: 0, pinned: 0, message_count: 2 });
		expect(entries[1].session).not.toHaveProperty('mood');
		expect(droppedFields).toBe(1);
		expect(entries[1].messages[1]).toMatchObject({ content: 'Rivers run', status: 'incomplete', kind: 'message', active: 1 });

		const after = await rawOpen(profileDbName(profile));
		expect(after.version).toBe(80);
		after.close();

		const target = openProfileDb(`into-${crypto.randomUUID()}`);
		cleanup.push(target.name);
		const report = await importSessions(target, 'into', await result.blob.text());
		expect(report).toMatchObject({ sessions_added: 2, messages_added: 3 });
		expect((await listMessages(target, 's1')).map((m) => m.content)).toEqual(['Tell me about rivers', 'Rivers run']);
		target.close();
	});

	it('says there is nothing to read when the database does not exist, and does not create it', async () => {
		const profile = `missing-${crypto.randomUUID()}`;
		const result = await rescueExport(profile);
		expect(result.sessions).toBe(0);
		expect(result.problems).toEqual(['There is no database to read.']);
		expect((await indexedDB.databases()).map((d) => d.name)).not.toContain(profileDbName(profile));
	});
});
