import { describe, expect, it } from 'vitest';
import type { PalimpsestDb } from '../../db/database';
import { MAX_IMPORT_BYTES, type ImportReport } from '../../sessions/transfer-format';
import type { SettingsState } from './settings.svelte';
import { TransferState } from './transfer.svelte';
import { describeImport } from './transfer-words';

const report = (more: Partial<ImportReport> = {}): ImportReport => ({
	sessions_added: 2,
	messages_added: 6,
	sessions_skipped: 0,
	messages_skipped: 0,
	links_removed: 0,
	loops_removed: 0,
	fields_dropped: 0,
	prompts_added: 0,
	prompts_skipped: 0,
	prompts_dropped: 0,
	...more
});

describe('what an import says it did', () => {
	it('says what it added, and nothing more when the file was clean', () => {
		expect(describeImport(report())).toBe('Imported 2 sessions (6 messages).');
	});

	it('says how many links to sessions it did not bring it removed, and what else it left out', () => {
		expect(describeImport(report({ links_removed: 2 }))).toBe('Imported 2 sessions (6 messages). 2 links to sessions not imported from this file were removed.');
		expect(describeImport(report({ links_removed: 1, loops_removed: 1, fields_dropped: 3 }))).toBe(
			'Imported 2 sessions (6 messages). 1 link to a session not imported from this file was removed. 1 link that led round in a loop was removed. 3 unknown fields were left out.'
		);
	});

	it('says so even when there was nothing new to add', () => {
		expect(describeImport(report({ sessions_added: 0, messages_added: 0, sessions_skipped: 1, messages_skipped: 2, fields_dropped: 1 }))).toBe(
			'Nothing new to import: all 1 session in the file are already in this profile. 1 unknown field was left out.'
		);
	});
});

describe('what an import says of the prompts it brought', () => {
	it('counts those it added beside the sessions, alone when the file held no new session', () => {
		expect(describeImport(report({ prompts_added: 3 }))).toBe('Imported 2 sessions (6 messages) and 3 prompts.');
		expect(describeImport(report({ sessions_added: 0, messages_added: 0, prompts_added: 1 }))).toBe('Imported 1 prompt.');
	});

	it('says which it skipped and which it left out', () => {
		expect(describeImport(report({ prompts_added: 1, prompts_skipped: 2, prompts_dropped: 1 }))).toBe(
			'Imported 2 sessions (6 messages) and 1 prompt. Skipped 2 prompts whose ids or names this profile has already (or past the 1,000 a profile keeps). 1 prompt that is not a prompt this app keeps (a missing or overlong field, a name no prompt may have) was left out.'
		);
		expect(describeImport(report({ sessions_added: 0, messages_added: 0, prompts_skipped: 1 }))).toBe(
			'Nothing new to import: the file holds no sessions. Skipped 1 prompt whose id or name this profile has already (or past the 1,000 a profile keeps).'
		);
	});
});

describe('an export too large to import again', () => {
	it('says so, with its size and the limit, while the user can still export in parts', async () => {
		const exportWith = async (size: number) => {
			const client = {
				exportSessions: async () => ({ blob: { size } as Blob, filename: 'all.json', sessions: 900, messages: 90_000, prompts: 0 }),
				importFile: async () => report()
			};
			const state = new TransferState({
				db: {} as PalimpsestDb,
				settings: { set: async () => {} } as unknown as SettingsState,
				profile: () => ({ id: 'default', label: 'Default' }),
				client,
				download: () => {}
			});
			await state.exportSessions('all', 'json');
			return state.outcome?.text;
		};
		expect(await exportWith(300 * 1024 * 1024)).toBe(
			'Exported 900 sessions (90,000 messages) as JSON: all.json At 300 MB it is larger than an import takes (256 MB): to move these sessions to another profile or browser, export them in parts (Chosen sessions).'
		);
		expect(await exportWith(MAX_IMPORT_BYTES)).toBe('Exported 900 sessions (90,000 messages) as JSON: all.json');
	});
});

describe('an import that does not finish', () => {
	const importFailing = async (error: Error) => {
		const state = new TransferState({
			db: {} as PalimpsestDb,
			settings: {} as SettingsState,
			profile: () => ({ id: 'default', label: 'Default' }),
			client: { exportSessions: async () => Promise.reject(new Error('unused')), importFile: async () => Promise.reject(error) }
		});
		await state.importFile(new Blob(['{}']));
		return state.outcome;
	};
	const named = (name: string, message: string) => Object.assign(new Error(message), { name });

	it('a refused file, or a failure before anything landed, changed nothing and says so', async () => {
		expect(await importFailing(named('ImportError', 'The file is empty.'))).toEqual({ ok: false, text: 'Import refused: The file is empty. Nothing was changed.' });
		expect(await importFailing(new Error('The connection was lost.'))).toEqual({ ok: false, text: 'Import failed: The connection was lost. Nothing was changed.' });
	});

	it('one that stopped after some slices says what it added, and never that nothing changed', async () => {
		const message = 'The import stopped after adding 2 sessions (7 messages) of the 5 sessions in the file, because storage is full (the browser refused to store more data). Each added session is complete. Import the same file again to add the rest: sessions already here are skipped.';
		expect(await importFailing(named('ImportStoppedError', message))).toEqual({ ok: false, text: `Import stopped: ${message}` });
	});
});
