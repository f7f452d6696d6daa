import 'fake-indexeddb/auto';
import Dexie from 'dexie';
import { afterEach, describe, expect, it } from 'vitest';
import { PalimpsestDb, SCHEMA_V12 } from './database';
import { deletePrompt, findPromptByName, listPromptNames, listPrompts, PromptNameTaken, savePrompt, writeImportedPrompts } from './prompt-verbs';
import { MAX_PROMPTS, type PromptRow } from './schema';
import { testSessionRow } from './test-session-row';

let name = '';
afterEach(async () => {
	await Dexie.delete(name);
});

function fresh(): PalimpsestDb {
	name = `prompts-${crypto.randomUUID()}`;
	return new PalimpsestDb(name);
}

const row = (id: string, prompt: string, created_at = 1): PromptRow => ({ id, name: prompt, text: `Text of ${prompt}`, created_at, updated_at: created_at });

describe('schema migration to version 13', () => {
	it('keeps what version 12 held and adds an empty prompts table', async () => {
		name = `prompts-${crypto.randomUUID()}`;
		const v12 = new Dexie(name);
		v12.version(12).stores(SCHEMA_V12);
		await v12.table('sessions').add(testSessionRow('s1', { title: 'kept' }));
		v12.close();
		const db = new PalimpsestDb(name);
		await db.open();
		expect(db.verno).toBe(14);
		expect((await db.sessions.get('s1'))?.title).toBe('kept');
		expect(await listPrompts(db)).toEqual([]);
		await savePrompt(db, { name: 'translate', text: 'Translate {{text}}' });
		expect(await listPromptNames(db)).toEqual(['translate']);
		db.close();
	});
});

describe('prompt verbs', () => {
	it('save, rename, list by name and delete', async () => {
		const db = fresh();
		const a = await savePrompt(db, { name: 'translate', text: 'Translate {{text}}' }, 10);
		await savePrompt(db, { name: 'brief', text: 'Be brief.' }, 20);
		expect(a).toMatchObject({ name: 'translate', created_at: 10, updated_at: 10 });
		expect(a.id).toMatch(/^[0-9a-f-]{36}$/);
		expect(await listPromptNames(db)).toEqual(['brief', 'translate']);
		const renamed = await savePrompt(db, { id: a.id, name: 'to-english', text: 'Into English: {{text}}' }, 30);
		expect(renamed).toMatchObject({ id: a.id, created_at: 10, updated_at: 30 });
		expect((await findPromptByName(db, 'to-english'))?.text).toBe('Into English: {{text}}');
		expect(await findPromptByName(db, 'translate')).toBeUndefined();
		await deletePrompt(db, a.id);
		expect((await listPrompts(db)).map((p) => p.name)).toEqual(['brief']);
		await expect(savePrompt(db, { id: a.id, name: 'back', text: 'x' })).rejects.toThrow('no longer exists');
		db.close();
	});

	it('refuse a name another prompt has, and a prompt past the most a profile keeps', async () => {
		const db = fresh();
		const a = await savePrompt(db, { name: 'translate', text: 'one' });
		await expect(savePrompt(db, { name: 'translate', text: 'two' })).rejects.toBeInstanceOf(PromptNameTaken);
		const b = await savePrompt(db, { name: 'other', text: 'two' });
		await expect(savePrompt(db, { id: b.id, name: 'translate', text: 'two' })).rejects.toThrow('A prompt named “translate” exists already');
		// Its own name is no clash.
		await savePrompt(db, { id: a.id, name: 'translate', text: 'one, edited' });
		await db.prompts.bulkAdd(Array.from({ length: MAX_PROMPTS - 2 }, (_, i) => row(`p${i}`, `p${i}`)));
		await expect(savePrompt(db, { name: 'one-more', text: 'x' })).rejects.toThrow(`at most ${MAX_PROMPTS.toLocaleString('en')} prompts`);
		db.close();
	});

	it('answer to a name two devices both gave with the earlier prompt', async () => {
		const db = fresh();
		await db.prompts.bulkAdd([row('zzz', 'same', 5), row('aaa', 'same', 9), row('mmm', 'same', 5)]);
		expect((await findPromptByName(db, 'same'))?.id).toBe('mmm');
		expect(await listPromptNames(db)).toEqual(['same']);
		db.close();
	});

	it('add imported prompts, skipping ids and names the profile has', async () => {
		const db = fresh();
		await db.prompts.add(row('here', 'translate'));
		const outcome = await writeImportedPrompts(db, [row('here', 'renamed'), row('new-id', 'translate'), row('fresh', 'brief')]);
		expect(outcome).toEqual({ added: 1, skipped: 2 });
		expect((await listPrompts(db)).map((p) => [p.id, p.name])).toEqual([
			['fresh', 'brief'],
			['here', 'translate']
		]);
		db.close();
	});
});
