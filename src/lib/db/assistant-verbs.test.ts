import 'fake-indexeddb/auto';
import Dexie from 'dexie';
import { afterEach, describe, expect, it } from 'vitest';
import { copyName, deleteAssistant, duplicateAssistant, listAssistants, saveAssistant, writeImportedAssistants, type AssistantFields } from './assistant-verbs';
import { PalimpsestDb, SCHEMA_V13 } from './database';
import { ASSISTANT_LIMITS } from './schema';
import { testSessionRow } from './test-session-row';

let name = '';
afterEach(async () => {
	await Dexie.delete(name);
});

function fresh(): PalimpsestDb {
	name = `assistants-${crypto.randomUUID()}`;
	return new PalimpsestDb(name);
}

const fields = (assistant: string, more: Partial<AssistantFields> = {}): AssistantFields => ({ name: assistant, provider: '', model: '', starters: [], ...more });

describe('schema migration to version 14', () => {
	it('keeps what version 13 held and adds an empty assistants table', async () => {
		name = `assistants-${crypto.randomUUID()}`;
		const v13 = new Dexie(name);
		v13.version(13).stores(SCHEMA_V13);
		await v13.table('sessions').add(testSessionRow('s1', { title: 'kept' }));
		await v13.table('prompts').add({ id: 'p1', name: 'brief', text: 'Be brief.', created_at: 1, updated_at: 1 });
		v13.close();
		const db = new PalimpsestDb(name);
		await db.open();
		expect(db.verno).toBe(14);
		expect((await db.sessions.get('s1'))?.title).toBe('kept');
		expect(await db.prompts.count()).toBe(1);
		expect(await listAssistants(db)).toEqual([]);
		await saveAssistant(db, fields('Reviewer'));
		expect((await listAssistants(db)).map((a) => a.name)).toEqual(['Reviewer']);
		db.close();
	});
});

describe('assistant verbs', () => {
	it('save, edit, list by name, duplicate and delete', async () => {
		const db = fresh();
		const a = await saveAssistant(db, fields('Translator', { chat_settings: { system_prompt: 'Translate.', temperature: 0.3 }, starters: ['Into French'] }), undefined, 10);
		await saveAssistant(db, fields('Coder', { chat_settings: {} }), undefined, 20);
		expect(a).toMatchObject({ name: 'Translator', created_at: 10, updated_at: 10 });
		expect(a.id).toMatch(/^[0-9a-f-]{36}$/);
		const listed = await listAssistants(db);
		expect(listed.map((x) => x.name)).toEqual(['Coder', 'Translator']);
		// No settings set is none stored.
		expect(listed[0]).not.toHaveProperty('chat_settings');
		const edited = await saveAssistant(db, fields('Translator', { chat_settings: { temperature: 1 } }), a.id, 30);
		expect(edited).toMatchObject({ id: a.id, created_at: 10, updated_at: 30, chat_settings: { temperature: 1 }, starters: [] });
		const copy = await duplicateAssistant(db, a.id, 40);
		expect(copy).toMatchObject({ name: 'Translator (copy)', chat_settings: { temperature: 1 }, created_at: 40 });
		expect(copy.id).not.toBe(a.id);
		expect((await duplicateAssistant(db, copy.id)).name).toBe('Translator (copy 2)');
		await deleteAssistant(db, a.id);
		expect((await listAssistants(db)).map((x) => x.name)).toEqual(['Coder', 'Translator (copy 2)', 'Translator (copy)']);
		await expect(saveAssistant(db, fields('Back'), a.id)).rejects.toThrow('no longer exists');
		await expect(duplicateAssistant(db, a.id)).rejects.toThrow('no longer exists');
		db.close();
	});

	it('never keep more than a profile holds, and a copy’s name stays within bounds', async () => {
		const db = fresh();
		await db.assistants.bulkAdd(Array.from({ length: ASSISTANT_LIMITS.assistants }, (_, i) => ({ id: `a${i}`, name: `A ${i}`, provider: '', model: '', starters: [], created_at: 0, updated_at: 0 })));
		await expect(saveAssistant(db, fields('One more'))).rejects.toThrow('at most 500 assistants');
		await expect(duplicateAssistant(db, 'a1')).rejects.toThrow('at most 500 assistants');
		expect(await writeImportedAssistants(db, [{ id: 'new', name: 'New', provider: '', model: '', starters: [], created_at: 0, updated_at: 0 }])).toEqual({ added: 0, skipped: 1 });
		const long = 'x'.repeat(ASSISTANT_LIMITS.nameChars);
		expect(copyName(long, new Set())).toHaveLength(ASSISTANT_LIMITS.nameChars);
		db.close();
	});

	it('an import skips the ids the profile has, keeping its own', async () => {
		const db = fresh();
		const mine = await saveAssistant(db, fields('Mine'));
		const report = await writeImportedAssistants(db, [
			{ ...mine, name: 'Theirs' },
			{ id: 'other', name: 'Other', provider: '', model: '', starters: [], created_at: 1, updated_at: 1 }
		]);
		expect(report).toEqual({ added: 1, skipped: 1 });
		expect((await listAssistants(db)).map((a) => a.name)).toEqual(['Mine', 'Other']);
		db.close();
	});
});
