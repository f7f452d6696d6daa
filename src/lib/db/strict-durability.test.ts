import 'fake-indexeddb/auto';
import Dexie from 'dexie';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { openProfileDb, SCHEMA_V3 } from './database';
import { appendMessages, updateMessage } from './message-verbs';
import { createSession } from '../sessions/session-lifecycle';
import { exportSessions } from '../sessions/export-sessions';
import { importSessions } from '../sessions/import-sessions';
import { strictTwin } from './strict-twin';

interface Opened {
	db: string;
	stores: string[];
	mode: IDBTransactionMode;
	durability: string;
}

let seen: Opened[] = [];
const names: string[] = [];
beforeEach(() => {
	seen = [];
	const original = IDBDatabase.prototype.transaction;
	vi.spyOn(IDBDatabase.prototype, 'transaction').mockImplementation(function (this: IDBDatabase, stores, mode, options) {
		const tx = original.call(this, stores, mode, options);
		seen.push({ db: this.name, stores: [...tx.objectStoreNames], mode: tx.mode, durability: tx.durability });
		return tx;
	});
});
afterEach(async () => {
	vi.restoreAllMocks();
	for (const name of names.splice(0)) await Dexie.delete(name);
});

function profile(): string {
	const id = `strict-${crypto.randomUUID()}`;
	names.push(`palimpsest-${id}`);
	return id;
}

const writesTo = (store: string) => seen.filter((t) => t.mode === 'readwrite' && t.stores.includes(store));

describe('writes that must survive a crash', () => {
	it('an import commits with strict durability', async () => {
		const from = openProfileDb(profile());
		const session = await createSession({ db: from, profile: 'from', platform: 'web' }, { provider: 'offline', model: 'm' });
		await appendMessages(from, session.id, [{ id: 'u', role: 'user', content: 'keep me', status: 'complete', kind: 'message', created_at: 1 }]);
		const file = await exportSessions(from, { profile: 'from', ids: 'all', kind: 'json' });
		from.close();

		const into = openProfileDb(profile());
		await into.sessions.count();
		seen = [];
		const report = await importSessions(into, 'into', await file.blob.text());
		expect(report.sessions_added).toBe(1);
		const imports = seen.filter((t) => t.mode === 'readwrite' && t.stores.includes('messages') && t.stores.includes('sessions'));
		expect(imports.length).toBe(1);
		expect(imports[0].durability).toBe('strict');
		into.close();
	});

	it('a schema upgrade is flushed by a strict write before the database is used, and leaves no row behind', async () => {
		const id = profile();
		const v3 = new Dexie(`palimpsest-${id}`);
		v3.version(3).stores(SCHEMA_V3);
		await v3.table('settings').put({ key: 'theme', value: 'dark' });
		v3.close();
		seen = [];
		const db = openProfileDb(id);
		await db.open();
		const strict = writesTo('settings').filter((t) => t.durability === 'strict');
		expect(strict).toHaveLength(1);
		expect(await db.settings.toArray()).toEqual([{ key: 'theme', value: 'dark' }]);
		// Opening again without an upgrade needs no flush.
		db.close();
		seen = [];
		await db.open();
		expect(writesTo('settings')).toEqual([]);
		db.close();
	});

	it('ordinary checkpoints keep the browser’s faster default; a strict twin is strict for whatever runs through it', async () => {
		const db = openProfileDb(profile());
		const session = await createSession({ db, profile: 'p', platform: 'web' }, { provider: 'offline', model: 'm' });
		const [row] = await appendMessages(db, session.id, [{ id: 'a', role: 'assistant', content: '', status: 'streaming', kind: 'message', created_at: 1 }]);
		seen = [];
		await updateMessage(db, [row.session_id, row.seq], { content: 'some words' });
		expect(writesTo('messages').map((t) => t.durability)).toEqual(['default']);
		seen = [];
		await strictTwin(db).receipts.put({ op_id: 'op', reason: 'delete', session_id: session.id, session_ids: [], detached_ids: [], at: 1 });
		expect(writesTo('receipts').map((t) => t.durability)).toEqual(['strict']);
		expect(await db.receipts.count()).toBe(1);
		db.close();
	});
});

