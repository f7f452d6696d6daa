// An imported file is untrusted: it may only link sessions it brings itself, its rows are read into
// exactly the shapes the app stores, and deleting what it brought never takes your sessions.
import 'fake-indexeddb/auto';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openProfileDb, type PalimpsestDb } from '../db/database';
import { appendMessages, listMessages } from '../db/message-verbs';
import { getSession } from '../db/session-verbs';
import { testSessionRow } from '../db/test-session-row';
import { strictTwin } from '../db/strict-twin';
import { simulateFullDisk } from '../db/test-full-disk';
import { deleteSessions } from './delete-sessions';
import { fileImportId } from './file-import-id';
import { importSessions } from './import-sessions';
import { createSession } from './session-lifecycle';
import type { SessionContext } from './session-context';

type Row = Record<string, unknown>;

const sessionRow = (id: string, extra: Row = {}): Row => ({
	...testSessionRow(id, {
		profile: 'elsewhere',
		title: `Imported ${id}`,
		title_source: 'message',
		session_key: `web:elsewhere:${id}`,
		created_at: 1_700_000_000_000,
		last_activity_at: 1_700_000_000_000,
		message_count: 1,
		token_estimate: 3,
		next_seq: 1
	}),
	...extra
});

const messageRow = (sessionId: string, extra: Row = {}): Row => ({
	session_id: sessionId,
	seq: 0,
	id: `${sessionId}-m0`,
	role: 'user',
	content: 'hello',
	status: 'complete',
	kind: 'message',
	active: 1,
	compacted_by: null,
	created_at: 1_700_000_000_000,
	...extra
});

const entry = (id: string, session: Row = {}, messages: Row[] = [messageRow(id)]) => ({ session: sessionRow(id, session), messages });

function fileOf(entries: Array<{ session: Row; messages: Row[] } & Row>): string {
	const message_count = entries.reduce((sum, e) => sum + e.messages.length, 0);
	return JSON.stringify({ format: 'palimpsest-sessions', version: 1, exported_at: 1, profile: 'elsewhere', session_count: entries.length, message_count, sessions: entries });
}

let db: PalimpsestDb;
let ctx: SessionContext;
/** A session of the user's own, with a message. */
let mine: string;

beforeEach(async () => {
	db = openProfileDb(`hostile-${crypto.randomUUID()}`);
	ctx = { db, profile: 'home', platform: 'web', now: () => 1_800_000_000_000 };
	mine = (await createSession(ctx, { provider: 'offline', model: 'offline-mini', title: 'My own work' })).id;
	await appendMessages(db, mine, [{ id: crypto.randomUUID(), role: 'user', kind: 'message', content: 'my words', status: 'complete', created_at: 1 }]);
});

afterEach(async () => {
	await db.delete();
});

async function everything() {
	return { sessions: await db.sessions.orderBy('id').toArray(), messages: await db.messages.toArray() };
}

describe('links in an imported file reach only sessions of the same file', () => {
	it('a link to one of your sessions is cut and reported; deleting the imported session leaves yours', async () => {
		const report = await importSessions(db, 'home', fileOf([entry('evil', { parent_session_id: mine, parent_kind: 'compression' })]));
		expect(report).toMatchObject({ sessions_added: 1, links_removed: 1 });
		expect(await getSession(db, 'evil')).toMatchObject({ parent_session_id: null, parent_kind: null });

		const outcome = await deleteSessions(ctx, ['evil']);
		expect(outcome.ids).toEqual(['evil']);
		expect(await getSession(db, mine)).toMatchObject({ title: 'My own work' });
		expect((await listMessages(db, mine)).map((m) => m.content)).toEqual(['my words']);
	});

	it('a compaction marker that names a session outside the file loses that link', async () => {
		const marker = { id: 'op', kind: 'summarize', reason: 'manual', before_tokens: 10, after_tokens: 2, messages_removed: 3, at: 1, old_session_id: mine };
		const report = await importSessions(db, 'home', fileOf([entry('s', {}, [messageRow('s', { kind: 'summary', role: 'assistant', compaction: marker })])]));
		expect(report.links_removed).toBe(1);
		const [row] = await listMessages(db, 's');
		expect(row.compaction).toEqual({ id: 'op', kind: 'summarize', reason: 'manual', before_tokens: 10, after_tokens: 2, messages_removed: 3, at: 1 });
	});

	it("a compaction marker's fact check comes with it", async () => {
		const facts = { total: 3, kept: 1, lost_count: 2, lost: [{ class: 'path', text: 'src/a.ts', seq: 1, added: true }, { class: 'instruction', text: 'Never push to main.', seq: 1 }], added_at: 5 };
		const marker = { id: 'op', kind: 'summarize', reason: 'manual', before_tokens: 10, after_tokens: 2, messages_removed: 3, at: 1, facts };
		await importSessions(db, 'home', fileOf([entry('s', {}, [messageRow('s', { kind: 'summary', role: 'assistant', compaction: marker })])]));
		const [row] = await listMessages(db, 's');
		expect(row.compaction?.facts).toEqual(facts);
	});

	it('links inside the file are kept: deleting any link of an imported lineage takes the lineage, and nothing of yours', async () => {
		const report = await importSessions(db, 'home', fileOf([entry('a', { ended_at: 2, end_reason: 'compression' }), entry('b', { parent_session_id: 'a', parent_kind: 'compression' })]));
		expect(report).toMatchObject({ sessions_added: 2, links_removed: 0 });
		expect((await deleteSessions(ctx, ['b'])).ids.sort()).toEqual(['a', 'b']);
		expect(await db.sessions.count()).toBe(1);
	});

	it('links that lead round in a loop are cut', async () => {
		const report = await importSessions(db, 'home', fileOf([
			entry('x', { parent_session_id: 'y', parent_kind: 'compression' }),
			entry('y', { parent_session_id: 'x', parent_kind: 'compression' }),
			entry('self', { parent_session_id: 'self', parent_kind: 'delegate' })
		]));
		expect(report).toMatchObject({ sessions_added: 3, links_removed: 0, loops_removed: 2 });
		const rows = await db.sessions.bulkGet(['x', 'y', 'self']);
		expect(rows.filter((row) => row!.parent_session_id !== null)).toHaveLength(1);
		expect(await getSession(db, 'self')).toMatchObject({ parent_session_id: null });
	});
});

describe('links in an imported file reach only sessions this import writes', () => {
	const marker = (old: string) => ({ id: 'op', kind: 'summarize', reason: 'manual', before_tokens: 10, after_tokens: 2, messages_removed: 3, at: 1, old_session_id: old });
	const rotated = (id: string, parent: string) =>
		entry(id, { parent_session_id: parent, parent_kind: 'compression' }, [messageRow(id, { kind: 'summary', role: 'assistant', compaction: marker(parent) })]);

	it("a file's copy of one of your sessions is skipped and is none of the file's: links to it are cut and counted", async () => {
		await db.sessions.update(mine, { ended_at: 2, end_reason: 'compression' });
		const report = await importSessions(db, 'home', fileOf([entry(mine), rotated('child', mine)]));
		expect(report).toMatchObject({ sessions_added: 1, sessions_skipped: 1, links_removed: 2 });
		expect(await getSession(db, 'child')).toMatchObject({ parent_session_id: null, parent_kind: null });
		const [summary] = await listMessages(db, 'child');
		expect(summary.compaction).not.toHaveProperty('old_session_id');
		// Your session is as it was, and neither deletion takes the other.
		expect(await getSession(db, mine)).toMatchObject({ title: 'My own work', end_reason: 'compression' });
		expect(await getSession(db, mine)).not.toHaveProperty('import_id');
		expect((await deleteSessions(ctx, ['child'])).ids).toEqual(['child']);
		expect((await listMessages(db, mine)).map((m) => m.content)).toEqual(['my words']);
	});

	it("a session another import brought is none of this one's: links to it are cut, and the two never go together", async () => {
		await importSessions(db, 'home', fileOf([entry('first', { ended_at: 2, end_reason: 'compression' })]), undefined, 'file-one');
		const report = await importSessions(db, 'home', fileOf([entry('first', { ended_at: 2, end_reason: 'compression' }), rotated('second', 'first')]), undefined, 'file-two');
		expect(report).toMatchObject({ sessions_added: 1, sessions_skipped: 1, links_removed: 2 });
		const [first, second] = await db.sessions.bulkGet(['first', 'second']);
		expect(first!.import_id).toBe('file-one');
		expect(second).toMatchObject({ import_id: 'file-two', parent_session_id: null, parent_kind: null });
		expect((await deleteSessions(ctx, ['second'])).ids).toEqual(['second']);
		expect((await deleteSessions(ctx, ['first'])).ids).toEqual(['first']);
	});

	it('importing the same file again after it stopped keeps the links to what the first attempt wrote', async () => {
		const file = fileOf([entry('part-1', { ended_at: 2, end_reason: 'compression' }), rotated('part-2', 'part-1')]);
		const importId = await fileImportId(file);
		const disk = await simulateFullDisk(strictTwin(db));
		// Slices of one message: the disk fills once the first session has landed.
		const first = importSessions(db, 'home', file, (p) => void (p.phase === 'writing' && p.done >= 1 && disk.fill()), importId, 1);
		await expect(first).rejects.toMatchObject({ name: 'ImportStoppedError' });
		expect(await getSession(db, 'part-2')).toBeUndefined();
		disk.free();

		const report = await importSessions(db, 'home', file, undefined, importId, 1);
		expect(report).toMatchObject({ sessions_added: 1, sessions_skipped: 1, links_removed: 0 });
		expect(await getSession(db, 'part-2')).toMatchObject({ parent_session_id: 'part-1', parent_kind: 'compression', import_id: importId });
		expect((await listMessages(db, 'part-2'))[0].compaction?.old_session_id).toBe('part-1');
		// One imported conversation: deleting its later part takes the earlier one, and nothing of yours.
		expect((await deleteSessions(ctx, ['part-2'])).ids.sort()).toEqual(['part-1', 'part-2']);
		expect(await getSession(db, mine)).toBeDefined();
	});
});

describe('a deletion takes only sessions of the same origin', () => {
	it('a session whose link to yours is older than the import check (left by an earlier version) goes alone, and yours alone', async () => {
		await importSessions(db, 'home', fileOf([entry('child')]));
		// As an import before links to skipped sessions were cut could leave it.
		await db.sessions.update('child', { parent_session_id: mine, parent_kind: 'compression' });
		expect((await deleteSessions(ctx, ['child'])).ids).toEqual(['child']);
		expect(await getSession(db, mine)).toBeDefined();

		await importSessions(db, 'home', fileOf([entry('child2')]));
		await db.sessions.update('child2', { parent_session_id: mine, parent_kind: 'delegate' });
		expect((await deleteSessions(ctx, [mine])).ids).toEqual([mine]);
		// What stays loses its link to the session that went.
		expect(await getSession(db, 'child2')).toMatchObject({ parent_session_id: null, parent_kind: null });
	});
});

describe('rows of an imported file are read into the shapes the app stores', () => {
	const withMessage = (extra: Row) => fileOf([entry('s', {}, [messageRow('s', extra)])]);
	const withSession = (extra: Row) => fileOf([entry('s', extra)]);
	const cases: Array<[string, string, RegExp]> = [
		['injected: [null]', withMessage({ injected: [null] }), /message 1 of session s has “injected\[0\]” = null, expected injected context/],
		['injected text that is not text', withMessage({ injected: [{ plugin_id: 'p', plugin_name: 'P', text: { html: '<b>' } }] }), /“injected\[0\]\.text” = \{"html":"<b>"\}, expected text/],
		['tool_calls: [null]', withMessage({ role: 'assistant', tool_calls: [null] }), /“tool_calls\[0\]” = null, expected a tool call/],
		['a tool call without a name', withMessage({ role: 'assistant', tool_calls: [{ id: 'c1', arguments: '{}' }] }), /“tool_calls\[0\]\.name” missing, expected non-empty text/],
		['tool_calls that is not a list', withMessage({ role: 'assistant', tool_calls: 'rm -rf' }), /“tool_calls” = "rm -rf", expected a list/],
		['too many tool calls', withMessage({ role: 'assistant', tool_calls: Array.from({ length: 257 }, (_, i) => ({ id: `c${i}`, name: 'x', arguments: '{}' })) }), /“tool_calls” .*expected a list of at most 256 items/],
		['seq 1e300', withMessage({ seq: 1e300 }), /“seq” = 1e\+300, expected a number from -1,000,000,000 to 1,000,000,000/],
		['a seq far below the first', withMessage({ seq: -1e12 }), /“seq” = -1000000000000, expected a number from -1,000,000,000/],
		['a position that is not one', withMessage({ position: 'not-a-position' }), /“position” = "not-a-position", expected a position/],
		['a seq in text', withMessage({ seq: '3' }), /“seq” = "3", expected a number/],
		['a seq of null (NaN in JSON)', withMessage({ seq: null }), /“seq” = null, expected a number/],
		['next_seq 1e300', withSession({ next_seq: 1e300 }), /session 1 has “next_seq” = 1e\+300, expected a whole number/],
		['a non-numeric token_ratio', withSession({ token_ratio: 'fast' }), /“token_ratio” = "fast", expected a number from 0.5 to 2/],
		['an absurd token_ratio', withSession({ token_ratio: 1e9 }), /“token_ratio” = 1000000000, expected a number from 0.5 to 2/],
		['a compaction state of the wrong shape', withSession({ compaction: { failures: 'many', cooldown_until: 0, turns_since_micro: 0 } }), /“compaction\.failures” = "many", expected a whole number/],
		['a compaction state that is a list', withSession({ compaction: [] }), /“compaction” = \[\], expected compaction state/],
		['a compaction marker of an unknown kind', withMessage({ compaction: { id: 'op', kind: 'obliterate', reason: 'manual', before_tokens: 1, after_tokens: null, messages_removed: null, at: 1 } }), /“compaction\.kind” = "obliterate", expected "summarize"/],
		['lost facts of an unknown class', withMessage({ compaction: { id: 'op', kind: 'summarize', reason: 'manual', before_tokens: 1, after_tokens: null, messages_removed: null, at: 1, facts: { total: 1, kept: 0, lost_count: 1, lost: [{ class: 'script', text: 'x', seq: 1 }] } } }), /“compaction\.facts\.lost\[0\]\.class” = "script", expected "path"/],
		['more lost facts listed than a marker keeps', withMessage({ compaction: { id: 'op', kind: 'summarize', reason: 'manual', before_tokens: 1, after_tokens: null, messages_removed: null, at: 1, facts: { total: 101, kept: 0, lost_count: 101, lost: Array.from({ length: 101 }, (_, i) => ({ class: 'path', text: `f${i}.ts`, seq: 1 })) } } }), /“compaction\.facts\.lost” .*expected a list of at most 100 items/],
		['a title too long', withSession({ title: 'x'.repeat(1001) }), /“title” = "x+…, expected text of at most 1,000 characters/],
		['a time past what a date holds', withSession({ created_at: 1e300 }), /“created_at” = 1e\+300, expected a number from 0/],
		['a flag that is not 0 or 1', withSession({ archived: true }), /“archived” = true, expected 0, 1/],
		['a message that is not an object', fileOf([entry('s', {}, ['hello' as unknown as Row])]), /message 1 of session s is not a message/],
		['a provider item of an unknown wire', withMessage({ native: { api: 'gopher', model: 'm', items: [], opaque: true } }), /“native\.api” = "gopher", expected "openai-responses", "anthropic"/],
		['provider items that are not a list', withMessage({ native: { api: 'anthropic', model: 'm', items: 'all', opaque: false } }), /“native\.items” = "all", expected a list/],
		['a provider item nested too deep', withMessage({ native: { api: 'anthropic', model: 'm', items: [JSON.parse('['.repeat(40) + ']'.repeat(40))], opaque: false } }), /“native\.items\[0\]” .*expected JSON data/],
		["a provider's name that is not text", withSession({ named_provider: { id: 'p1', name: { html: '<b>' } } }), /“named_provider\.name” = \{"html":"<b>"\}, expected text/],
		["a provider's name too long", withSession({ named_provider: { id: 'p1', name: 'x'.repeat(1001) } }), /“named_provider\.name” = "x+…, expected text of at most 1,000 characters/],
		["a provider's name without its id", withSession({ named_provider: { name: 'Work server' } }), /“named_provider\.id” missing/],
		['versions that are not a list', withSession({ versions: { after: 0, shown: 1, count: 2 } }), /“versions” = .*expected a list/],
		['a version number of 0', withSession({ versions: [{ after: null, shown: 0, count: 2 }] }), /“versions\[0\]\.shown” = 0, expected a whole number from 1/],
		['a shelved version at a place that is text', withMessage({ active: 0, shelved: { after: 'start', version: 1 } }), /“shelved\.after” = "start", expected a number .* or null/],
		["a tool result's image bytes in its row", withMessage({ role: 'tool', tool_result: { server: 's', is_error: false, parts: [{ type: 'image', mimeType: 'image/png', data: 'AAAA' }] } }), /“tool_result\.parts\[0\]\.id” missing/],
		["a tool result's image of a type no provider takes", withMessage({ role: 'tool', tool_result: { server: 's', is_error: false, parts: [{ type: 'image', id: 'i', mimeType: 'image/svg+xml', size: 10 }] } }), /“tool_result\.parts\[0\]\.mimeType” = "image\/svg\+xml", expected "image\/png"/],
		["a tool result's part of an unknown type", withMessage({ role: 'tool', tool_result: { server: 's', is_error: false, parts: [{ type: 'html', html: '<b>x</b>' }] } }), /“tool_result\.parts\[0\]” = .*expected a part of a tool result/],
		["a tool result's link that is not http(s)", withMessage({ role: 'tool', tool_result: { server: 's', is_error: false, parts: [{ type: 'resource_link', uri: 'javascript:alert(1)', name: 'x' }] } }), /“tool_result\.parts\[0\]\.uri” = "javascript:alert\(1\)", expected an http\(s\) address/],
		['a tool result without its server', withMessage({ role: 'tool', tool_result: { is_error: false, parts: [] } }), /“tool_result\.server” missing/],
		['arguments a tool ran with that do not say who changed them', withMessage({ role: 'tool', ran_with: { arguments: '{}' } }), /“ran_with\.changed_by” missing/],
		['arguments a tool ran with naming a plugin by a number', withMessage({ role: 'tool', ran_with: { arguments: '{}', changed_by: [7] } }), /“ran_with\.changed_by\[0\]” = 7/],
		['a message kept in context by a word', withMessage({ pinned: 'yes' }), /“pinned” = "yes", expected true, false or 1/],
		['a message kept in context by a number other than 1', withMessage({ pinned: 2 }), /“pinned” = 2, expected true, false or 1/],
		['a message kept in context by an object', withMessage({ pinned: { valueOf: 1 } }), /“pinned” = \{"valueOf":1\}, expected true, false or 1/]
	];

	it.each(cases)('%s is refused, naming the field, and nothing changes', async (_name, file, message) => {
		const before = await everything();
		await expect(importSessions(db, 'home', file)).rejects.toMatchObject({ name: 'ImportError', message: expect.stringMatching(message) });
		expect(await everything()).toEqual(before);
	});

	it('unknown fields are left out at every level, counted, and pollute nothing', async () => {
		const marker = { id: 'op', kind: 'summarize', reason: 'manual', before_tokens: 1, after_tokens: null, messages_removed: null, at: 1, shout: 1 };
		const file = fileOf([
			{
				session: sessionRow('s', { onclick: 'alert(1)', compaction: { failures: 0, cooldown_until: 0, turns_since_micro: 0, extra: 1 } }),
				messages: [
					messageRow('s', { html: '<img onerror=x>', role: 'assistant', tool_calls: [{ id: 'c', name: 'clock', arguments: '{}', run: 'now' }] }),
					messageRow('s', { seq: 1, id: 'm1', injected: [{ plugin_id: 'p', plugin_name: 'P', text: 'ctx', color: 'red' }] }),
					messageRow('s', { seq: 1.5, id: 'm2', kind: 'summary', compaction: marker })
				],
				extra: true
			}
		]).replace('"onclick"', '"__proto__":{"polluted":true},"onclick"');
		const report = await importSessions(db, 'home', file);
		expect(report).toMatchObject({ sessions_added: 1, messages_added: 3, fields_dropped: 8 });
		expect(({} as Row).polluted).toBeUndefined();
		const session = (await getSession(db, 's'))!;
		expect(Object.keys(session).sort()).toEqual(
			['id', 'profile', 'import_id', 'title', 'title_source', 'session_key', 'created_at', 'last_activity_at', 'ended_at', 'end_reason', 'parent_session_id', 'parent_kind', 'archived', 'pinned', 'provider', 'model', 'message_count', 'token_estimate', 'next_seq', 'compaction'].sort()
		);
		expect(session.compaction).toEqual({ failures: 0, cooldown_until: 0, turns_since_micro: 0 });
		const [first, second, third] = await listMessages(db, 's');
		expect(first).not.toHaveProperty('html');
		expect(first.tool_calls).toEqual([{ id: 'c', name: 'clock', arguments: '{}' }]);
		expect(second.injected).toEqual([{ plugin_id: 'p', plugin_name: 'P', text: 'ctx' }]);
		expect(third.compaction).not.toHaveProperty('shout');
	});

	it("a tool server's result comes along as the transcript showed it", async () => {
		const tool_result = {
			server: 'calc',
			is_error: false,
			parts: [
				{ type: 'text', text: 'The sum is 5.' },
				{ type: 'resource_link', uri: 'https://calc.test/doc', name: 'Docs', description: 'How sums work' },
				{ type: 'resource', uri: 'file:///notes.txt', mimeType: 'text/plain', text: 'notes' },
				{ type: 'structured', json: '{"sum": 5}' },
				{ type: 'note', text: 'An image (image/png, about 1 KB) the tool returned; it is not kept in the transcript.' }
			]
		};
		await importSessions(db, 'home', fileOf([entry('s', {}, [messageRow('s', { role: 'tool', tool_call_id: 'c1', content: 'The sum is 5.', tool_result })])]));
		expect((await listMessages(db, 's'))[0].tool_result).toEqual(tool_result);
	});

	it('the arguments a tool ran with, changed by plugins, come along with the plugins named', async () => {
		const ran_with = { arguments: '{"message":"REWRITTEN"}', changed_by: ['Argument rewriter'] };
		await importSessions(db, 'home', fileOf([entry('s', {}, [messageRow('s', { role: 'tool', tool_call_id: 'c1', content: 'Echo: REWRITTEN', ran_with })])]));
		expect((await listMessages(db, 's'))[0].ran_with).toEqual(ran_with);
	});

	it("a provider's compaction item is kept exactly, to be sent back", async () => {
		const native = { api: 'openai-responses', model: 'gpt-5.6', items: [{ type: 'compaction', id: 'cmp_1', encrypted_content: 'enc', nested: { list: [1, 'two', null, true] } }], opaque: true };
		await importSessions(db, 'home', fileOf([entry('s', {}, [messageRow('s', { kind: 'summary', native })])]));
		expect((await listMessages(db, 's'))[0].native).toEqual(native);
	});

	it('a session without a compaction state gets a fresh one; a sound token_ratio is kept', async () => {
		const file = fileOf([entry('s', { compaction: undefined, token_ratio: 1.25 })]);
		await importSessions(db, 'home', file);
		expect(await getSession(db, 's')).toMatchObject({ compaction: { failures: 0, cooldown_until: 0, turns_since_micro: 0 }, token_ratio: 1.25 });
	});

	it("the name of the session's provider comes along, so a browser without that provider can still name it", async () => {
		const named_provider = { id: 'p1', name: 'Work server' };
		await importSessions(db, 'home', fileOf([entry('s', { provider: 'p1', model: 'mock-model', named_provider })]));
		expect((await getSession(db, 's'))?.named_provider).toEqual(named_provider);
	});

	it('the versions of an edited conversation come along: the place, the version on show, and the rows put away', async () => {
		const versions = [{ after: null, shown: 2, count: 2 }];
		const shelved = messageRow('s', { seq: 0, active: 0, shelved: { after: null, version: 1 } });
		await importSessions(db, 'home', fileOf([entry('s', { versions, next_seq: 2 }, [shelved, messageRow('s', { seq: 1, id: 's-m1', content: 'edited' })])]));
		expect((await getSession(db, 's'))?.versions).toEqual(versions);
		expect((await listMessages(db, 's')).map((row) => row.shelved ?? null)).toEqual([{ after: null, version: 1 }, null]);
	});

	it('a message kept in context comes along kept, whether the file says true or 1', async () => {
		const rows = [messageRow('s', { pinned: true }), messageRow('s', { seq: 1, id: 's-m1', role: 'assistant', pinned: 1 }), messageRow('s', { seq: 2, id: 's-m2', pinned: false }), messageRow('s', { seq: 3, id: 's-m3' })];
		const report = await importSessions(db, 'home', fileOf([entry('s', { next_seq: 4 }, rows)]));
		expect(report).toMatchObject({ messages_added: 4, fields_dropped: 0 });
		expect((await listMessages(db, 's')).map((row) => row.pinned)).toEqual([true, true, false, undefined]);
	});

	it("a chat's settings come along; each one out of its type or range is left out and counted, the others kept", async () => {
		const fine = { system_prompt: 'Answer as a pirate.', temperature: 0.7, top_p: 1, max_tokens: 2048, reasoning_effort: 'low', compaction: 40, tool_servers_off: ['https://b.test/mcp', 'https://a.test/mcp'], plugin_tools_off: ['clock'] };
		const hostile = {
			system_prompt: 'x'.repeat(100_001),
			temperature: 2.5,
			top_p: -0.1,
			max_tokens: 1e300,
			reasoning_effort: 'maximal',
			compaction: 'never',
			tool_servers_off: [{ url: 'x' }],
			plugin_tools_off: 'clock',
			onclick: 'alert(1)'
		};
		const report = await importSessions(db, 'home', fileOf([entry('fine', { chat_settings: fine }), entry('mixed', { chat_settings: { ...hostile, temperature: 0, compaction: 'off' } }), entry('all-bad', { chat_settings: hostile }), entry('not-an-object', { chat_settings: ['hot'] })]));
		expect(report).toMatchObject({ sessions_added: 4, fields_dropped: 7 + 9 + 1 });
		// Kept in the one order every writer stores, the lists sorted.
		expect((await getSession(db, 'fine'))?.chat_settings).toEqual({ ...fine, tool_servers_off: ['https://a.test/mcp', 'https://b.test/mcp'] });
		expect((await getSession(db, 'mixed'))?.chat_settings).toEqual({ temperature: 0, compaction: 'off' });
		for (const id of ['all-bad', 'not-an-object']) expect(await getSession(db, id)).not.toHaveProperty('chat_settings');
	});

	it('the assistant a chat was started from comes along; one that does not fit is left out and counted, the session kept', async () => {
		const report = await importSessions(db, 'home', fileOf([entry('from', { assistant: { id: 'a1', name: 'Reviewer' } }), entry('giant', { assistant: { id: 'a2', name: 'x'.repeat(101) } }), entry('typed', { assistant: 'Reviewer' })]));
		expect(report).toMatchObject({ sessions_added: 3, fields_dropped: 2 });
		expect((await getSession(db, 'from'))?.assistant).toEqual({ id: 'a1', name: 'Reviewer' });
		for (const id of ['giant', 'typed']) expect(await getSession(db, id)).not.toHaveProperty('assistant');
	});

	it('an imported session takes new messages after its last one', async () => {
		await importSessions(db, 'home', fileOf([entry('s', { next_seq: 1 }, [messageRow('s', { seq: 999_999_999.5 })])]));
		const [row] = await appendMessages(db, 's', [{ id: 'next', role: 'user', kind: 'message', content: 'more', status: 'complete', created_at: 2 }]);
		expect(row.seq).toBe(1_000_000_000);
	});
});
