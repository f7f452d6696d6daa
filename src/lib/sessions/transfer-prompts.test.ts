// Saved prompts travel with an export of every session (JSON), and an import adds those that fit
// what a prompt may be here, leaving out and counting the rest: an imported file is hostile input.
import 'fake-indexeddb/auto';
import { afterEach, describe, expect, it } from 'vitest';
import { openProfileDb, type PalimpsestDb } from '../db/database';
import { appendMessages } from '../db/message-verbs';
import { listPrompts, savePrompt } from '../db/prompt-verbs';
import { MAX_PROMPTS } from '../db/schema';
import { createSession } from './session-lifecycle';
import { exportSessions } from './export-sessions';
import { importSessions } from './import-sessions';
import { EXPORT_FORMAT, EXPORT_VERSION, ImportError } from './transfer-format';

const opened: PalimpsestDb[] = [];
function profileDb(): PalimpsestDb {
	const db = openProfileDb(`prompts-${crypto.randomUUID()}`);
	opened.push(db);
	return db;
}
afterEach(async () => {
	for (const db of opened.splice(0)) await db.delete();
});

const profileOf = (db: PalimpsestDb) => db.name.slice('palimpsest-'.length);
const exportAll = async (db: PalimpsestDb, kind: 'json' | 'markdown' = 'json', ids: string[] | 'all' = 'all') => exportSessions(db, { profile: profileOf(db), ids, kind });

/** A file of no session holding `prompts` as they are. */
const fileWith = (prompts: unknown) => JSON.stringify({ format: EXPORT_FORMAT, version: EXPORT_VERSION, exported_at: 1, profile: 'x', session_count: 0, message_count: 0, prompts, sessions: [] });

describe('prompts in an export', () => {
	it('go with every session as JSON and come back whole in another profile, sessions alongside', async () => {
		const source = profileDb();
		const session = await createSession({ db: source, profile: profileOf(source), platform: 'web' }, { provider: 'offline', model: 'offline-mini' });
		await appendMessages(source, session.id, [{ id: 'm', role: 'user', kind: 'message', status: 'complete', created_at: 1, content: 'hello' }]);
		await savePrompt(source, { name: 'translate', text: 'Translate {{text}} into {{language}}.' }, 10);
		await savePrompt(source, { name: 'brief', text: 'Be brief.' }, 20);
		const exported = await exportAll(source);
		expect(exported).toMatchObject({ sessions: 1, messages: 1, prompts: 2 });
		const target = profileDb();
		const report = await importSessions(target, profileOf(target), await exported.blob.text());
		expect(report).toMatchObject({ sessions_added: 1, prompts_added: 2, prompts_skipped: 0, prompts_dropped: 0, fields_dropped: 0 });
		expect(await listPrompts(target)).toEqual(await listPrompts(source));
		// Again: nothing new.
		expect(await importSessions(target, profileOf(target), await exported.blob.text())).toMatchObject({ sessions_added: 0, prompts_added: 0, prompts_skipped: 2 });
	});

	it('are exported when there is no session, and only with every session in JSON', async () => {
		const source = profileDb();
		await savePrompt(source, { name: 'alone', text: 'Only a prompt.' });
		const exported = await exportAll(source);
		expect(exported).toMatchObject({ sessions: 0, prompts: 1 });
		expect(JSON.parse(await exported.blob.text())).toMatchObject({ session_count: 0, sessions: [], prompts: [{ name: 'alone', text: 'Only a prompt.' }] });
		await expect(exportAll(source, 'markdown')).rejects.toThrow('There are no sessions to export.');
		const session = await createSession({ db: source, profile: profileOf(source), platform: 'web' }, { provider: 'offline', model: 'offline-mini' });
		expect(JSON.parse(await (await exportAll(source, 'json', [session.id])).blob.text()).prompts).toBeUndefined();
	});
});

describe('prompts in an imported file', () => {
	it('that do not fit are left out and counted; the rest, and the sessions, come in', async () => {
		const target = profileDb();
		const good = { id: 'p1', name: 'translate', text: 'Translate {{text}}', created_at: 1, updated_at: 1 };
		const report = await importSessions(target, profileOf(target), fileWith([good, { ...good, id: 'p2', name: 'help' }, { id: 'p3', name: 'long', text: 'x'.repeat(100_001) }, 'text', { ...good, id: 'p4', name: 'extra', unknown: 1 }]));
		expect(report).toMatchObject({ prompts_added: 2, prompts_dropped: 3, fields_dropped: 1 });
		expect((await listPrompts(target)).map((prompt) => prompt.name)).toEqual(['extra', 'translate']);
	});

	it('a name or id the profile has is skipped, its prompt here kept as it is', async () => {
		const target = profileDb();
		const mine = await savePrompt(target, { name: 'translate', text: 'Mine.' });
		const report = await importSessions(target, profileOf(target), fileWith([
			{ id: 'other', name: 'translate', text: 'Theirs.' },
			{ id: mine.id, name: 'renamed', text: 'Theirs too.' }
		]));
		expect(report).toMatchObject({ prompts_added: 0, prompts_skipped: 2 });
		expect(await listPrompts(target)).toEqual([mine]);
	});

	it('never take a profile past the most it keeps; a list that is not one is left out, and a broken session still refuses the file', async () => {
		const target = profileDb();
		const many = Array.from({ length: MAX_PROMPTS + 3 }, (_, i) => ({ id: `p${i}`, name: `p${i}`, text: 'x' }));
		expect(await importSessions(target, profileOf(target), fileWith(many))).toMatchObject({ prompts_added: MAX_PROMPTS, prompts_dropped: 3 });
		expect(await target.prompts.count()).toBe(MAX_PROMPTS);
		expect(await importSessions(profileDb(), 'other', fileWith({ translate: 'x' }))).toMatchObject({ prompts_added: 0, prompts_dropped: 1 });
		const broken = JSON.stringify({ ...JSON.parse(fileWith([{ id: 'q', name: 'q', text: 'q' }])), session_count: 1, sessions: [{ session: 'broken', messages: [] }] });
		const untouched = profileDb();
		await expect(importSessions(untouched, 'untouched', broken)).rejects.toBeInstanceOf(ImportError);
		expect(await untouched.prompts.count()).toBe(0);
	});
});
