// What comes from the sync server is hostile: a document with any field out of its type, length
// or range, one this app does not know, or a clock more than a day ahead of this device's, is
// refused whole, with a reason a person can act on. Documents of the format before clocks are
// read into today's shape.
import { describe, expect, it } from 'vitest';
import { testSessionRow } from '../db/test-session-row';
import { fieldsOfRow, messageToBody, type MessageDoc } from './message-document';
import { nextPosition } from './position';
import { readDocument, type ReadDocument } from './read-document';
import { sessionToBody, stampSession } from './session-document';
import { seededRandom } from './test-random';
import { ZERO_CLOCK } from './clock';

const NOW = Date.UTC(2026, 0, 1);
const DAY = 24 * 60 * 60 * 1000;
const REV = '2-0123456789abcdef0123456789abcdef';
const random = seededRandom(11);
const [P1, P2, P3] = [nextPosition(undefined, NOW, random), nextPosition(undefined, NOW + 1, random), nextPosition(undefined, NOW + 2, random)];

type Body = Record<string, unknown>;
const sessionBody = (): Body => sessionToBody(stampSession('s-1', testSessionRow('s-1', { title: 'Plans' }), undefined, { at: NOW, random: seededRandom(1) }), REV);
const messageDoc = (): MessageDoc => ({
	session_id: 's-1',
	position: P3,
	clock: P3,
	fields: fieldsOfRow({ session_id: 's-1', seq: 0, position: P3, id: 'm-0', role: 'assistant', content: 'hello', status: 'complete', kind: 'message', active: 1, compacted_by: null, created_at: NOW, tool_calls: [{ id: 'c', name: 'n', arguments: '{}' }] }),
	clocks: {},
	removed: false
});
const messageBody = (): Body => ({ ...messageToBody(messageDoc()), _rev: REV });
const read = (body: unknown): ReadDocument => readDocument(body, NOW);

function reasonFor(body: unknown): string {
	const result = read(body);
	if (result.kind !== 'refused') throw new Error(`Read as ${result.kind}, not refused.`);
	return result.reason;
}

describe('readDocument', () => {
	it('reads a valid session, message and Blob, a removed message, and what the server deleted', () => {
		expect(read(sessionBody()).kind).toBe('session');
		expect(read(messageBody())).toEqual({ kind: 'message', rev: REV, doc: messageDoc() });
		expect(read({ _id: `msg:s-1:${P2}`, _rev: REV, format: 2, removed: true })).toMatchObject({ kind: 'message', doc: { removed: true, position: P2 } });
		expect(read({ _id: 'blob:s-1:img-1', _rev: REV, _attachments: { data: { content_type: 'image/png', length: 68, stub: true, digest: 'md5-x' } } })).toEqual({ kind: 'blob', rev: REV, session_id: 's-1', blob_id: 'img-1', type: 'image/png', size: 68 });
		expect(read({ _id: `msg:s-1:${P2}`, _rev: REV, _deleted: true })).toEqual({ kind: 'deleted', rev: REV, id: { kind: 'message', session_id: 's-1', position: P2 } });
		// The revisions that conflict with it, to merge; CouchDB's other fields are left alone.
		expect(read({ ...sessionBody(), _conflicts: ['1-abc'], _revisions: { start: 2, ids: [] } })).toMatchObject({ kind: 'session', conflicts: ['1-abc'] });
	});

	it('refuses a clock or position more than a day ahead of this device’s clock, as written from the future', () => {
		const ahead = nextPosition(undefined, NOW + 2 * DAY, random);
		const session = sessionBody();
		expect(reasonFor({ ...session, clocks: { ...(session.clocks as Body), title: ahead } })).toMatch(/“clocks.title” is a clock more than a day ahead/);
		expect(reasonFor({ ...messageBody(), _id: `msg:s-1:${ahead}` })).toMatch(/a clock more than a day ahead/);
		expect(reasonFor({ ...messageBody(), clocks: { content: ahead } })).toMatch(/“clocks.content” is a clock more than a day ahead/);
		// Within a day is a clock that runs a little fast: read.
		expect(read({ ...messageBody(), clocks: { content: nextPosition(undefined, NOW + DAY / 2, random) } }).kind).toBe('message');
	});

	it('refuses what is not a document of this app, naming the id', () => {
		expect(reasonFor('text')).toBe('A document is refused: it is not a JSON object.');
		expect(reasonFor({ ...sessionBody(), _id: undefined })).toMatch(/has no “_id”/);
		expect(reasonFor({ ...sessionBody(), _id: 'settings:api_key' })).toMatch(/“_id” is "settings:api_key", expected session:<id>/);
		expect(reasonFor({ ...messageBody(), _id: 'msg:s-1:12' })).toMatch(/expected session:<id>, msg/);
		expect(reasonFor({ ...sessionBody(), _rev: 'latest' })).toMatch(/“_rev” is "latest", expected a CouchDB revision/);
		expect(reasonFor({ _id: 'blob:s-1:x', _rev: REV, _attachments: { data: { content_type: 'image/png', length: 0 } } })).toMatch(/“_attachments.data.length” is 0/);
		expect(reasonFor({ _id: 'blob:s-1:x', _rev: REV, note: 1, _attachments: { data: { content_type: 'image/png', length: 1 } } })).toMatch(/“note”, a field this app does not know/);
	});

	it('refuses a later format, and fields this app does not know at any depth', () => {
		expect(reasonFor({ ...sessionBody(), format: 3 })).toMatch(/written by a newer Palimpsest \(format 3; this app reads up to 2\)/);
		expect(reasonFor({ ...sessionBody(), api_key: 'sk-x' })).toMatch(/it has “api_key”, a field this app does not know/);
		expect(reasonFor({ ...messageBody(), sent: {} })).toMatch(/“sent”, a field this app does not know/);
		expect(reasonFor(JSON.parse(`{"__proto__": {"polluted": 1}, ${JSON.stringify(sessionBody()).slice(1)}`))).toMatch(/“__proto__”/);
		const session = sessionBody();
		expect(reasonFor({ ...session, fields: { ...(session.fields as Body), profile: 'x' } })).toMatch(/“fields” holds a field this app does not know/);
		expect(reasonFor({ ...session, clocks: { ...(session.clocks as Body), profile: P1 } })).toMatch(/“clocks” has “profile”, a field that does not sync/);
		const message = messageBody();
		expect(reasonFor({ ...message, fields: { ...(message.fields as Body), injected: [] } })).toMatch(/“fields” holds a field this app does not know/);
	});

	it('refuses fields out of type, length or range, naming the field, and a message still streaming', () => {
		const session = sessionBody();
		const fields = session.fields as Body;
		expect(reasonFor({ ...session, fields: { ...fields, title: 42 } })).toMatch(/“fields.title” is 42, expected text of at most 1,000 characters/);
		expect(reasonFor({ ...session, fields: { ...fields, archived: true } })).toMatch(/“fields.archived” is true, expected 0, 1/);
		expect(reasonFor({ ...session, fields: { ...fields, deleted_at: 'now' } })).toMatch(/“fields.deleted_at” is "now"/);
		expect(reasonFor({ ...session, shown: { nowhere: { id: P1, clock: P1 } } })).toMatch(/“shown” has “nowhere”, which is not a place/);
		const message = messageBody();
		const mf = message.fields as Body;
		expect(reasonFor({ ...message, fields: { ...mf, status: 'streaming' } })).toMatch(/“fields.status” is "streaming", expected "complete", "aborted", "error", "incomplete"/);
		expect(reasonFor({ ...message, fields: { ...mf, order: 'a b' } })).toMatch(/“fields.order” is "a b", expected an order key/);
		expect(reasonFor({ ...message, fields: { ...mf, branch: { at: 'x', id: P1 } } })).toMatch(/“fields.branch.at” is "x", expected a position/);
		expect(reasonFor({ ...message, fields: { ...mf, blobs: [{ id: 'i1', type: 'image/png', size: 1 }, { id: 'i1', type: 'image/png', size: 1 }] } })).toMatch(/names one Blob twice/);
	});

	it('reads a document of format 1: a session whose deletion had no clock, a compaction that listed what it covered, and Blobs attached to their message', () => {
		const legacySession = { _id: 'session:s-1', _rev: REV, format: 1, created_at: NOW, last_activity_at: NOW, deleted_at: NOW + 5, fields: { ...(sessionBody().fields as Body), deleted_at: undefined, provider_ref: undefined }, clocks: Object.fromEntries(Object.entries(sessionBody().clocks as Body).filter(([key]) => key !== 'deleted_at' && key !== 'provider_ref')) };
		const session = read(JSON.parse(JSON.stringify(legacySession)));
		expect(session).toMatchObject({ kind: 'session', doc: { fields: { deleted_at: NOW + 5, provider_ref: null }, clocks: { provider_ref: ZERO_CLOCK } } });
		const legacyMessage = { _id: `msg:s-1:${P3}`, _rev: REV, format: 1, id: 'm-0', role: 'user', content: 'summary', status: 'complete', kind: 'summary', created_at: NOW, tokens: 4, encoding: 'o200k_base', covers: [P1, P2], blobs: [{ id: 'i1', type: 'image/png', size: 10 }], _attachments: { i1: { content_type: 'image/png', length: 10, stub: true } } };
		expect(read(legacyMessage)).toMatchObject({ kind: 'message', doc: { clock: P3, fields: { content: 'summary', order: `${P2}V` } }, legacy: { covers: [P1, P2], attached: ['i1'] } });
	});
});
