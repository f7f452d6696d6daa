import 'fake-indexeddb/auto';
import { expose } from 'comlink';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openProfileDb, profileDbName, type PalimpsestDb } from '../db/database';
import { appendMessages, listMessages } from '../db/message-verbs';
import { setPinned } from '../db/pin-verbs';
import type { MessageRow, SessionRow } from '../db/schema';
import { strictTwin } from '../db/strict-twin';
import { simulateFullDisk } from '../db/test-full-disk';
import { writeSettings } from '../db/settings-verbs';
import { createSession } from './session-lifecycle';
import { setChatSettings } from './set-chat-settings';
import { getSession } from '../db/session-verbs';
import { exportSessions } from './export-sessions';
import { importSessions } from './import-sessions';
import { fileImportId } from './file-import-id';
import { transferApi } from './transfer-api';
import { createTransferClientFromPort } from './transfer-client';
import { EXPORT_VERSION, MAX_IMPORT_BYTES, type ExportFile, type TransferProgress } from './transfer-format';
import { parseExportFile, prepareEntry } from './validate-import';
import { testPosition } from '../db/test-position';
import { keyBetween, rankOf } from '../db/rank';

const opened: PalimpsestDb[] = [];
function profileDb(profile: string): PalimpsestDb {
	const db = openProfileDb(profile);
	opened.push(db);
	return db;
}
let source: PalimpsestDb;
let ids: { plain: string; compacted: string; child: string; branch: string };

afterEach(async () => {
	for (const db of opened.splice(0)) await db.delete();
});

/** Everything a profile holds, for "nothing changed" comparisons. */
async function dump(db: PalimpsestDb) {
	return {
		sessions: await db.sessions.orderBy('id').toArray(),
		messages: await db.messages.toArray(),
		settings: await db.settings.toArray()
	};
}

const text = (role: 'user' | 'assistant', content: string) => ({ id: crypto.randomUUID(), role, content, status: 'complete' as const, kind: 'message' as const, created_at: 1 });

/**
 * A profile as compaction and branching leave it: a plain session; a session compacted in place
 * (inactive rows kept with compacted_by, a summary at a fractional seq); a session that
 * rotated into a child (parent_kind compression); and a branch.
 */
async function seedProfile(profile: string): Promise<PalimpsestDb> {
	const db = profileDb(profile);
	let clock = 1_700_000_000_000;
	const ctx = { db, profile, platform: 'web', now: () => (clock += 1000) };
	const model = { provider: 'offline', model: 'offline-mini' };
	const plain = await createSession(ctx, model);
	await appendMessages(db, plain.id, [text('user', 'What is a palimpsest?'), text('assistant', 'A page written over.')]);
	const compacted = await createSession(ctx, model);
	await appendMessages(db, compacted.id, [text('user', 'one'), text('assistant', 'two'), text('user', 'three'), text('assistant', 'four')]);
	await db.messages.where('[session_id+seq]').between([compacted.id, 0], [compacted.id, 1], true, true).modify({ active: 0, compacted_by: 'op-1' });
	// Placed where the app places a summary: between the rows at seq 1 and 2, in seq order and in rank.
	const [two, three] = await db.messages.bulkGet([[compacted.id, 1], [compacted.id, 2]]);
	const rank = rankOf(testPosition(9), keyBetween(two!.position, three!.position));
	await db.messages.add({ ...text('assistant', '## Goal\nCount to four'), kind: 'summary', session_id: compacted.id, seq: 1.5, position: testPosition(9), rank, active: 1, compacted_by: null, tokens: 7, encoding: 'o200k_base' });
	const parent = await createSession(ctx, model);
	await appendMessages(db, parent.id, [text('user', 'before rotation')]);
	await db.sessions.update(parent.id, { ended_at: 2, end_reason: 'compression' });
	const child = await createSession(ctx, { ...model, session_key: parent.session_key, parent_session_id: parent.id, parent_kind: 'compression' });
	await appendMessages(db, child.id, [text('user', 'after rotation')]);
	const branch = await createSession(ctx, { ...model, parent_session_id: plain.id, parent_kind: 'branch' });
	await appendMessages(db, branch.id, [{ ...text('assistant', 'calling'), tool_calls: [{ id: 'c1', name: 'clock', arguments: '{}' }] }]);
	await db.sessions.update(branch.id, { archived: 1, pinned: 1 });
	ids = { plain: plain.id, compacted: compacted.id, child: child.id, branch: branch.id };
	return db;
}

async function exportText(db: PalimpsestDb, profile: string, which: string[] | 'all' = 'all'): Promise<string> {
	return (await exportSessions(db, { profile, ids: which, kind: 'json' })).blob.text();
}

beforeEach(async () => {
	source = await seedProfile(`home-${crypto.randomUUID()}`);
});

describe('export then import', () => {
	it('a fresh profile gets the same sessions and messages, filed under it, with compaction history and links', async () => {
		const from = source.name.slice('palimpsest-'.length);
		const file = await exportText(source, from);
		const target = profileDb('fresh');
		const report = await importSessions(target, 'fresh', file, undefined, 'import-1');
		expect(report).toEqual({ sessions_added: 5, messages_added: 10, sessions_skipped: 0, messages_skipped: 0, links_removed: 0, loops_removed: 0, fields_dropped: 0, prompts_added: 0, prompts_skipped: 0, prompts_dropped: 0 });
		const before = await dump(source);
		const after = await dump(target);
		expect(after.sessions).toEqual(before.sessions.map((row) => ({ ...row, profile: 'fresh', import_id: 'import-1' })));
		expect(after.messages).toEqual(before.messages);
		expect(after.messages.find((m) => m.kind === 'summary')).toMatchObject({ seq: 1.5, session_id: ids.compacted });
		expect(after.messages.filter((m) => m.active === 0).map((m) => m.compacted_by)).toEqual(['op-1', 'op-1']);
		// The imported session goes on where it stopped: its next message gets the next free seq.
		const [next] = await appendMessages(target, ids.compacted, [text('user', 'five')]);
		expect(next.seq).toBe(4);
	});

	it('a message kept in context is exported and comes back kept', async () => {
		await setPinned(source, ids.plain, 1, true);
		const target = profileDb('kept');
		expect(await importSessions(target, 'kept', await exportText(source, 'home', [ids.plain]))).toMatchObject({ messages_added: 2, fields_dropped: 0 });
		expect((await listMessages(target, ids.plain)).map((row) => [row.content, row.pinned])).toEqual([
			['What is a palimpsest?', undefined],
			['A page written over.', true]
		]);
	});

	it("a chat's settings are exported and come back the same", async () => {
		const chat_settings = { system_prompt: 'Answer as a pirate.', temperature: 0.3, max_tokens: 500, reasoning_effort: 'high' as const, compaction: 'off' as const, plugin_tools_off: ['clock'] };
		await setChatSettings({ db: source, profile: 'home', platform: 'web' }, ids.plain, chat_settings);
		const target = profileDb('settings');
		expect(await importSessions(target, 'settings', await exportText(source, 'home', [ids.plain]))).toMatchObject({ sessions_added: 1, fields_dropped: 0 });
		expect((await getSession(target, ids.plain))?.chat_settings).toEqual(chat_settings);
	});

	it('importing twice adds nothing the second time and reports what it skipped', async () => {
		const file = await exportText(source, 'home');
		const target = profileDb('twice');
		await importSessions(target, 'twice', file);
		const once = await dump(target);
		expect(await importSessions(target, 'twice', file)).toMatchObject({ sessions_added: 0, messages_added: 0, sessions_skipped: 5, messages_skipped: 10 });
		expect(await dump(target)).toEqual(once);
	});

	it('merges: a session the profile already has is kept as it is here, with its messages, and the rest is added', async () => {
		const file = await exportText(source, 'home');
		const target = profileDb('merge');
		await importSessions(target, 'merge', await exportText(source, 'home', [ids.plain]));
		await appendMessages(target, ids.plain, [text('user', 'said only here')]);
		const report = await importSessions(target, 'merge', file);
		expect(report).toMatchObject({ sessions_added: 4, sessions_skipped: 1, messages_skipped: 2 });
		expect((await listMessages(target, ids.plain)).map((m) => m.content)).toEqual(['What is a palimpsest?', 'A page written over.', 'said only here']);
		expect(await target.sessions.count()).toBe(5);
	});

	it('rows left by a session that no longer exists do not join the imported session of that id; a skipped session keeps its rows', async () => {
		const file = await exportText(source, 'home');
		const target = profileDb(`leftover-${crypto.randomUUID()}`);
		await importSessions(target, 'leftover', await exportText(source, 'home', [ids.plain]));
		await target.messages.bulkAdd([
			{ ...text('user', 'left behind'), session_id: ids.branch, seq: 0, position: testPosition(0), active: 1, compacted_by: null },
			{ ...text('user', 'left behind too'), session_id: ids.branch, seq: 7, position: testPosition(7), active: 1, compacted_by: null }
		]);
		// Slices of one session each, so the leftover rows and the kept session meet in different slices.
		await importSessions(target, 'leftover', file, undefined, 'import-1', 1);
		expect((await listMessages(target, ids.branch)).map((m) => m.content)).toEqual(['calling']);
		expect((await listMessages(target, ids.plain)).map((m) => m.content)).toEqual(['What is a palimpsest?', 'A page written over.']);
		expect(await target.messages.count()).toBe(10);
	});

	it('a chosen session comes with the sessions it continues after a compaction, not with a branch parent', async () => {
		const child = JSON.parse(await exportText(source, 'home', [ids.child])) as ExportFile;
		expect(child.sessions.map((e) => e.session.id)).toEqual([child.sessions[0].session.id, ids.child]);
		expect(child.sessions[0].session.end_reason).toBe('compression');
		const branch = JSON.parse(await exportText(source, 'home', [ids.branch])) as ExportFile;
		expect(branch.sessions.map((e) => e.session.id)).toEqual([ids.branch]);
		expect(branch.sessions[0].session.parent_session_id).toBe(ids.plain);
	});

	it('API keys, plugins and plugin storage never appear in an export', async () => {
		await writeSettings(source, { providers: [{ id: 'p', preset: 'openai', label: 'OpenAI', base_url: 'https://api.openai.com/v1', model: 'gpt-4o', api_key: 'sk-secret-key-123' }] });
		await source.plugins.add({ id: 'memo', url: '/plugins/memo.js', position: 0, enabled: 1, pinned_sha256: null, cached_source: 'const hidden = "plugin-source";', cached_sha256: null, manifest: null, last_error: null, added_at: 1 });
		await source.plugin_kv.add({ plugin_id: 'memo', key: 'note', value: 'plugin-storage-value' });
		for (const kind of ['json', 'markdown'] as const) {
			const out = await (await exportSessions(source, { profile: 'home', ids: 'all', kind })).blob.text();
			for (const secret of ['sk-secret-key-123', 'plugin-source', 'plugin-storage-value', 'providers']) expect(out).not.toContain(secret);
		}
	});

	it('Markdown is readable: titles, who said what, summaries and compacted messages marked', async () => {
		const result = await exportSessions(source, { profile: 'home', label: 'Home', ids: [ids.compacted, ids.branch], kind: 'markdown', now: Date.UTC(2025, 0, 2) });
		const md = await result.blob.text();
		expect(result.filename).toBe('palimpsest-home-2025-01-02-2-sessions.md');
		expect(md).toMatch(/^# Palimpsest sessions\n\nExported from profile “Home” on 2025-01-02 00:00 UTC: 2 sessions\./);
		expect(md).toContain('## one');
		expect(md).toMatch(/### You \(compacted\)\n\none/);
		expect(md).toMatch(/### Summary of earlier messages\n\n## Goal\nCount to four/);
		expect(md).toMatch(/### You\n\nthree/);
		expect(md).toContain('Called `clock` with:');
		expect(md.indexOf('## one')).toBeLessThan(md.indexOf('calling'));
	});
});

describe('a file that cannot be imported changes nothing', () => {
	let good: string;
	let target: PalimpsestDb;
	beforeEach(async () => {
		good = await exportText(source, 'home');
		target = profileDb(`bad-${crypto.randomUUID()}`);
		await importSessions(target, 'bad', await exportText(source, 'home', [ids.plain]));
		await writeSettings(target, { theme: 'dark' });
	});

	const edit = (change: (file: ExportFile) => unknown) => () => {
		const file = JSON.parse(good) as ExportFile;
		const changed = change(file);
		return JSON.stringify(changed ?? file);
	};
	const cases: Array<[string, () => string, RegExp]> = [
		['an empty file', () => '', /The file is empty/],
		['a truncated file', () => good.slice(0, Math.floor(good.length * 0.7)), /not valid JSON \(it may have been cut short/],
		['a file with a session list cut short', edit((f) => void f.sessions.pop()), /incomplete: it says it holds 5 sessions and 10 messages, but it has 4 and/],
		['a foreign JSON file', () => JSON.stringify([{ role: 'user', content: 'hi' }]), /not a Palimpsest sessions export \(it has no “format” field\)/],
		['another app’s format', edit((f) => ({ ...f, format: 'chatgpt-conversations' })), /its format is "chatgpt-conversations", not “palimpsest-sessions”/],
		['a future version', edit((f) => ({ ...f, version: EXPORT_VERSION + 1 })), new RegExp(`newer Palimpsest \\(file format version ${EXPORT_VERSION + 1}; this app reads up to version ${EXPORT_VERSION}\\)`)],
		['a session without its start time', edit((f) => void delete (f.sessions[1].session as Partial<SessionRow>).created_at), /session 2 has “created_at” missing, expected a number/],
		['a message filed under another session', edit((f) => void (f.sessions[2].messages[0].session_id = 'elsewhere')), /message 1 of session .* belongs to "elsewhere"/],
		['a message with an unknown role', edit((f) => void ((f.sessions[0].messages[0] as { role: string }).role = 'wizard')), /has “role” = "wizard", expected "system", "user", "assistant", "tool"/],
		['a session twice', edit((f) => ({ ...f, session_count: 6, message_count: 12, sessions: [...f.sessions, f.sessions[0]] })), /appears twice/],
		['two messages at one position', edit((f) => void ((f.sessions[1].messages[1] as MessageRow).seq = 0)), /two messages at position 0/]
	];

	it.each(cases)('%s is refused with a clear message', async (_name, make, message) => {
		const before = await dump(target);
		await expect(importSessions(target, 'bad', make())).rejects.toMatchObject({ name: 'ImportError', message: expect.stringMatching(message) });
		expect(await dump(target)).toEqual(before);
	});

	it('a broken row in the last slice refuses the whole file: no slice is written', async () => {
		const before = await dump(target);
		// Slices of two messages: the branch, last in the file, is the fourth slice.
		const broken = edit((f) => void ((f.sessions[4].messages[0] as { role: string }).role = 'wizard'))();
		await expect(importSessions(target, 'bad', broken, undefined, 'import-1', 2)).rejects.toMatchObject({
			name: 'ImportError',
			message: expect.stringMatching(/message 1 of session .* has “role” = "wizard"/)
		});
		expect(await dump(target)).toEqual(before);
	});
});

describe('an import larger than one slice', () => {
	const sameAsSource = async (target: PalimpsestDb, profile: string) => {
		const before = await dump(source);
		const after = await dump(target);
		expect(after.sessions).toEqual(before.sessions.map((row) => ({ ...row, profile, import_id: 'import-1' })));
		expect(after.messages).toEqual(before.messages);
	};

	it('lands completely, a slice of whole sessions at a time, with progress after each', async () => {
		const target = profileDb(`sliced-${crypto.randomUUID()}`);
		const written: number[] = [];
		const report = await importSessions(target, 'sliced', await exportText(source, 'home'), (p) => void (p.phase === 'writing' && written.push(p.done)), 'import-1', 2);
		expect(report).toMatchObject({ sessions_added: 5, messages_added: 10, sessions_skipped: 0 });
		// Slices of at most two messages, but a session is never split: 2, 5 (the compacted one), 1 + 1, 1.
		expect(written).toEqual([0, 2, 7, 9, 10]);
		await sameAsSource(target, 'sliced');
	});

	it('a slice that fails is rolled back whole; the ones before it stay complete, and importing the file again adds the rest as the same import', async () => {
		const file = await exportText(source, 'home');
		const target = profileDb(`stopped-${crypto.randomUUID()}`);
		const disk = await simulateFullDisk(strictTwin(target));
		// The disk fills once two slices (two sessions, seven messages) have landed.
		const stopping = importSessions(target, 'stopped', file, (p) => void (p.phase === 'writing' && p.done >= 7 && disk.fill()), 'import-1', 2);
		await expect(stopping).rejects.toMatchObject({
			name: 'ImportStoppedError',
			message: expect.stringMatching(/^The import stopped after adding 2 sessions \(7 messages\) of the 5 sessions in the file, because storage is full .*Import the same file again to add the rest/)
		});
		const partial = await dump(target);
		expect(partial.sessions.map((row) => row.id).sort()).toEqual([ids.plain, ids.compacted].sort());
		expect(partial.messages).toHaveLength(7);
		disk.free();
		expect(await importSessions(target, 'stopped', file, undefined, 'import-1', 2)).toMatchObject({ sessions_added: 3, messages_added: 3, sessions_skipped: 2, messages_skipped: 7 });
		await sameAsSource(target, 'stopped');
	});

	it('a failure before any session landed changes nothing and says so as a plain failure', async () => {
		const target = profileDb(`full-${crypto.randomUUID()}`);
		const disk = await simulateFullDisk(strictTwin(target));
		disk.fill();
		await expect(importSessions(target, 'full', await exportText(source, 'home'), undefined, 'import-1', 2)).rejects.not.toMatchObject({ name: 'ImportStoppedError' });
		expect(await target.sessions.count()).toBe(0);
		expect(await target.messages.count()).toBe(0);
	});

	it('the same file always gets the same import id, and any other file another', async () => {
		const file = await exportText(source, 'home');
		expect(await fileImportId(file)).toBe(await fileImportId(`${file}`));
		expect(await fileImportId(file)).not.toBe(await fileImportId(file.replace('What is a palimpsest?', 'What is a palimpsest!')));
	});
});

describe('a file too large to import', () => {
	it('is refused before any of it is read, saying its size and the limit', async () => {
		let read = false;
		const huge = (size: number) => ({ size, stream: () => ((read = true), new Blob(['{}']).stream()) }) as unknown as Blob;
		await expect(transferApi.importFile('too-large', huge(300 * 1024 * 1024))).rejects.toMatchObject({
			name: 'ImportError',
			message: 'This file is 300 MB; Palimpsest imports files of up to 256 MB. Export fewer sessions at a time (Chosen sessions) and import each file.'
		});
		await expect(transferApi.importFile('too-large', huge(MAX_IMPORT_BYTES + 1))).rejects.toThrow(/^This file is just over 256 MB;/);
		expect(read).toBe(false);
	});
});

describe('import preparation', () => {
	it('an answer exported while streaming arrives incomplete; the next seq is past every message', () => {
		const { entries: [entry] } = parseExportFile(JSON.stringify({
			format: 'palimpsest-sessions', version: 1, exported_at: 1, profile: 'x', session_count: 1, message_count: 1,
			sessions: [{
				session: { id: 's', profile: 'x', title: 't', title_source: 'auto', session_key: 'web:x:s', created_at: 1, last_activity_at: 1, ended_at: null, end_reason: null, parent_session_id: null, parent_kind: null, archived: 0, pinned: 0, provider: 'offline', model: 'm', message_count: 1, token_estimate: 0, next_seq: 0 },
				messages: [{ session_id: 's', seq: 6.5, id: 'm', role: 'assistant', content: 'half', status: 'streaming', kind: 'message', active: 1, compacted_by: null, created_at: 1 }]
			}]
		}));
		const prepared = prepareEntry(entry, 'y', 'import-1');
		expect(prepared.session).toMatchObject({ profile: 'y', import_id: 'import-1', next_seq: 7, session_key: 'web:x:s', compaction: { failures: 0 } });
		expect(prepared.messages[0]).toMatchObject({ status: 'incomplete', content: 'half', seq: 6.5 });
	});
});

describe('the transfer worker API over a message channel', () => {
	it('exports and imports with progress, and a refusal crosses the channel as an ImportError', async () => {
		const { port1, port2 } = new MessageChannel();
		expose(transferApi, port1);
		const client = createTransferClientFromPort(port2);
		const from = source.name.slice('palimpsest-'.length);
		const exported = await client.exportSessions({ profile: from, ids: 'all', kind: 'json' });
		expect(exported).toMatchObject({ sessions: 5, messages: 10, filename: expect.stringMatching(/^palimpsest-home-.*\.json$/) });
		const seen: TransferProgress['phase'][] = [];
		const target = `worker-${crypto.randomUUID()}`;
		const report = await client.importFile(target, exported.blob, (p) => seen.push(p.phase));
		expect(report.sessions_added).toBe(5);
		expect(new Set(seen)).toEqual(new Set(['reading', 'checking', 'writing']));
		const db = profileDb(target);
		expect(await db.messages.count()).toBe(10);
		expect(await db.sessions.where('id').equals(ids.plain).first()).toMatchObject({ profile: target });
		await expect(client.importFile(target, new Blob(['{"format":"palimpsest-sessions","version":99}']))).rejects.toMatchObject({ name: 'ImportError', message: expect.stringContaining('newer Palimpsest') });
		port1.close();
		port2.close();
		expect(profileDbName(target)).toBe(db.name);
	});
});
