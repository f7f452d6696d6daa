// A session's document carries only the fields that sync, each with the clock of its last edit,
// and reads back from the server as the same session.
import { describe, expect, it } from 'vitest';
import type { SessionRow } from '../db/schema';
import { testSessionRow } from '../db/test-session-row';
import { blobDocId, messageDocId, parseDocId, sessionDocId } from './document-ids';
import { nextPosition } from './position';
import { readDocument } from './read-document';
import { CLOCKED_FIELDS, latestClock, purgeSession, sessionRowFields, sessionToBody, stampSession, type SessionDoc } from './session-document';
import { FIRST_VERSION } from '../db/conversation';
import { seededRandom } from './test-random';
import { ZERO_CLOCK } from './clock';

const NOW = Date.UTC(2026, 0, 1);
const REV = '1-a816ee822d39f92fd10f169d92d3ace9';

/** A row with every field this device keeps to itself set to something a server must never see. */
function localRow(extra: Partial<SessionRow> = {}): SessionRow {
	return testSessionRow('s-1', {
		profile: 'work-profile',
		title: 'Trip planning',
		title_source: 'user',
		created_at: NOW - 1000,
		last_activity_at: NOW,
		message_count: 12,
		token_estimate: 3456,
		next_seq: 12,
		compaction: { failures: 2, cooldown_until: NOW + 60_000, turns_since_micro: 3 },
		token_ratio: 1.2,
		import_id: 'import-42',
		versions: [{ after: 3, shown: 2, count: 2 }],
		...extra
	});
}

describe('document ids', () => {
	it('names sessions session:<id>, messages msg:<session>:<position> and Blobs blob:<session>:<id>, and reads them back', () => {
		const position = nextPosition(undefined, NOW, seededRandom(1));
		expect(sessionDocId('s-1')).toBe('session:s-1');
		expect(messageDocId('s-1', position)).toBe(`msg:s-1:${position}`);
		expect(parseDocId('session:s-1')).toEqual({ kind: 'session', session_id: 's-1' });
		// A session id with a colon still reads: the position is the id's last 26 characters.
		expect(parseDocId(`msg:a:b:${position}`)).toEqual({ kind: 'message', session_id: 'a:b', position });
		expect(blobDocId('a:b', 'c:d')).toBe('blob:a:b:c%3Ad');
		expect(parseDocId(blobDocId('a:b', 'c:d'))).toEqual({ kind: 'blob', session_id: 'a:b', blob_id: 'c:d' });
	});

	it('refuses ids that name nothing this app writes', () => {
		const position = nextPosition(undefined, NOW, seededRandom(1));
		for (const id of ['session:', 'msg:s-1', `msg::${position}`, `msg:s-1-${position}`, `msg:s-1:${position.toLowerCase()}`, '_design/x', 'settings:api_key', `session:${'x'.repeat(201)}`, 'session:a\u0000b', 42]) {
			expect(parseDocId(id), String(id)).toBeNull();
		}
		expect(() => sessionDocId('')).toThrow(/session id/);
		expect(() => messageDocId('s-1', 'not-a-position')).toThrow(/position/);
	});
});

describe('stampSession', () => {
	it('sends only the session fields that sync, never the profile, counts, cooldowns, ratio, origin or derived versions', () => {
		const body = sessionToBody(stampSession('s-1', localRow(), undefined, { at: NOW, random: seededRandom(1) }));
		expect(Object.keys(body).sort()).toEqual(['_id', 'clocks', 'created_at', 'fields', 'format', 'last_activity_at']);
		// A chat never given settings of its own is written as the app before them wrote it.
		expect(Object.keys(body.fields as object).sort()).toEqual(CLOCKED_FIELDS.filter((f) => f !== 'chat_settings' && f !== 'assistant').sort());
		const text = JSON.stringify(body);
		for (const local of ['work-profile', 'import-42', 'message_count', 'token_estimate', 'next_seq', 'cooldown', 'token_ratio', 'versions', '3456']) {
			expect(text).not.toContain(local);
		}
	});

	it('gives a new clock only to the fields that changed, past every clock the device had seen', () => {
		const random = seededRandom(2);
		const first = stampSession('s-1', localRow(), undefined, { at: NOW, random });
		// One clock for the whole first edit; settings of a chat that has none keep the lowest one.
		expect(new Set(Object.values(first.clocks)).size).toBe(2);
		expect(first.clocks.chat_settings).toBe(ZERO_CLOCK);
		// The device's clock is behind the first edit's: the rename still gets a later clock.
		const renamed = stampSession('s-1', localRow({ title: 'Trip to Lisbon' }), first, { at: NOW - 3_600_000, random });
		expect(renamed.clocks.title > latestClock(first)).toBe(true);
		for (const field of CLOCKED_FIELDS.filter((f) => f !== 'title')) expect(renamed.clocks[field]).toBe(first.clocks[field]);
		// Nothing changed: nothing gets a new clock.
		expect(stampSession('s-1', localRow({ title: 'Trip to Lisbon' }), renamed, { at: NOW + 5, random })).toEqual(renamed);
	});

	it('records a deletion as a field, which a restore sets back; a purge keeps nothing but itself', () => {
		const random = seededRandom(3);
		const live = stampSession('s-1', localRow(), undefined, { at: NOW, random });
		const deleted = stampSession('s-1', null, live, { at: NOW + 10, random, deleted: true });
		expect(deleted.fields.deleted_at).toBe(NOW + 10);
		expect(deleted.clocks.deleted_at > latestClock(live)).toBe(true);
		expect(stampSession('s-1', localRow(), deleted, { at: NOW + 20, random }).fields.deleted_at).toBeNull();
		expect(sessionToBody(purgeSession(deleted, NOW + 30))).toEqual({ _id: 'session:s-1', format: 2, purged_at: NOW + 30 });
	});

	it('does not take another device’s id for the same provider as an edit', () => {
		const random = seededRandom(5);
		const there = stampSession('s-1', localRow({ provider: 'p-there' }), undefined, { at: NOW, random, providerRef: { preset: 'custom', base_url: 'https://llm.example/v1', name: 'Home' } });
		const here = localRow({ provider: 'p-here' });
		const same = (doc: SessionDoc, provider: string) => provider === 'p-here' && doc.fields.provider === 'p-there';
		expect(stampSession('s-1', here, there, { at: NOW + 10, random, providerRef: { preset: 'custom', base_url: 'https://llm.example/v1', name: 'Mine' }, sameProvider: same })).toEqual(there);
	});

	it("carries a chat's settings once set, and reads them back; a document without them (an older app's) has none", () => {
		const random = seededRandom(6);
		const plain = stampSession('s-1', localRow(), undefined, { at: NOW, random });
		const set = stampSession('s-1', localRow({ chat_settings: { system_prompt: 'Be brief.', top_p: 0.5 } }), plain, { at: NOW + 10, random });
		const body = sessionToBody(set, REV);
		expect(body.fields).toMatchObject({ chat_settings: { system_prompt: 'Be brief.', top_p: 0.5 } });
		expect(readDocument(body, NOW + 10)).toEqual({ kind: 'session', rev: REV, doc: set });
		expect(sessionRowFields(set).chat_settings).toEqual({ system_prompt: 'Be brief.', top_p: 0.5 });
		// Cleared again: written as null with its clock, so the clearing wins over the older value elsewhere.
		const cleared = stampSession('s-1', localRow(), set, { at: NOW + 20, random });
		expect(sessionToBody(cleared).fields).toMatchObject({ chat_settings: null });
		expect(sessionRowFields(cleared)).not.toHaveProperty('chat_settings');
		const old = readDocument(sessionToBody(plain, REV), NOW);
		expect(old).toMatchObject({ kind: 'session', doc: { fields: { chat_settings: null }, clocks: { chat_settings: ZERO_CLOCK } } });
	});

	it("refuses a document whose chat settings are out of range or of fields this app does not know", () => {
		const random = seededRandom(7);
		const body = sessionToBody(stampSession('s-1', localRow({ chat_settings: { temperature: 1 } }), undefined, { at: NOW, random }), REV);
		const withSettings = (chat_settings: unknown) => ({ ...body, fields: { ...(body.fields as object), chat_settings } });
		for (const bad of [{ temperature: 7 }, { top_p: -1 }, { max_tokens: 1.5 }, { system_prompt: 'x'.repeat(100_001) }, { compaction: 'sometimes' }, { temperature: 1, seed: 4 }, 'hot']) {
			expect(readDocument(withSettings(bad), NOW), JSON.stringify(bad).slice(0, 40)).toMatchObject({ kind: 'refused' });
		}
		expect(readDocument(withSettings({ temperature: 1.5 }), NOW)).toMatchObject({ kind: 'session', doc: { fields: { chat_settings: { temperature: 1.5 } } } });
	});

	it('reads back from its body as the same document, which sets the synced fields of a row', () => {
		const doc = stampSession('s-1', localRow({ ended_at: NOW, end_reason: 'new_session', parent_session_id: 'p-1', parent_kind: 'branch', archived: 1, pinned: 1, version_shown: { '': FIRST_VERSION } }), undefined, { at: NOW, random: seededRandom(4) });
		expect(readDocument(sessionToBody(doc, REV), NOW)).toEqual({ kind: 'session', rev: REV, doc });
		expect(sessionRowFields(doc)).toEqual({
			id: 's-1',
			created_at: NOW - 1000,
			last_activity_at: NOW,
			title: 'Trip planning',
			title_source: 'user',
			session_key: 'web:default:s-1',
			ended_at: NOW,
			end_reason: 'new_session',
			parent_session_id: 'p-1',
			parent_kind: 'branch',
			archived: 1,
			pinned: 1,
			provider: 'offline',
			model: 'offline-mini',
			version_shown: { '': FIRST_VERSION }
		});
	});
});
