// What comes from the sync server is hostile: a document with any field out of its type, length
// or range, or one this app does not know, is refused whole, with a reason a person can act on.
import { describe, expect, it } from 'vitest';
import { testSessionRow } from '../db/test-session-row';
import { messageDocFromRow, messageToBody } from './message-document';
import { nextPosition } from './position';
import { readDocument } from './read-document';
import { sessionToBody, stampSession } from './session-document';
import { seededRandom } from './test-random';

const NOW = Date.UTC(2026, 0, 1);
const REV = '2-0123456789abcdef0123456789abcdef';
const random = seededRandom(11);
const [P1, P2, P3] = [nextPosition(undefined, NOW, random), nextPosition(undefined, NOW + 1, random), nextPosition(undefined, NOW + 2, random)];

type Body = Record<string, unknown>;
const sessionBody = (): Body => sessionToBody(stampSession(testSessionRow('s-1', { title: 'Plans' }), undefined, NOW, seededRandom(1)), REV);
const messageBody = (covers?: string[]): Body => ({
	...messageToBody(
		messageDocFromRow(
			{ session_id: 's-1', seq: 0, position: P3, id: 'm-0', role: 'assistant', content: 'hello', status: 'complete', kind: 'summary', active: 1, compacted_by: null, created_at: NOW, tool_calls: [{ id: 'c', name: 'n', arguments: '{}' }] },
			P3,
			covers
		)
	),
	_rev: REV
});

function reasonFor(body: unknown): string {
	const read = readDocument(body);
	if (read.kind !== 'refused') throw new Error(`Read as ${read.kind}, not refused.`);
	return read.reason;
}

describe('readDocument', () => {
	it('reads a valid session and message, and a message deleted on the server', () => {
		expect(readDocument(sessionBody()).kind).toBe('session');
		expect(readDocument(messageBody([P1, P2])).kind).toBe('message');
		expect(readDocument({ _id: `msg:s-1:${P2}`, _rev: REV, _deleted: true })).toEqual({ kind: 'message-removed', rev: REV, session_id: 's-1', position: P2 });
		// CouchDB's own fields, when asked for, are left alone.
		expect(readDocument({ ...sessionBody(), _conflicts: ['1-abc'], _revisions: { start: 2, ids: [] } }).kind).toBe('session');
	});

	it('refuses what is not a document of this app, naming the id', () => {
		expect(reasonFor('text')).toBe('A document is refused: it is not a JSON object.');
		expect(reasonFor([])).toMatch(/not a JSON object/);
		expect(reasonFor({ ...sessionBody(), _id: undefined })).toMatch(/has no “_id”/);
		expect(reasonFor({ ...sessionBody(), _id: 'settings:api_key' })).toBe('Document "settings:api_key" is refused: its “_id” is "settings:api_key", expected session:<id> or msg:<session>:<position>.');
		expect(reasonFor({ ...sessionBody(), _id: `session:${'x'.repeat(300)}` })).toMatch(/expected session:<id>/);
		expect(reasonFor({ ...messageBody(), _id: 'msg:s-1:12' })).toMatch(/expected session:<id> or msg/);
		expect(reasonFor({ ...sessionBody(), _rev: 'latest' })).toMatch(/“_rev” is "latest", expected a CouchDB revision/);
		expect(reasonFor({ ...sessionBody(), _rev: undefined })).toMatch(/“_rev” is missing/);
	});

	it('reads a session deleted with _deleted as its record purged after the retention period', () => {
		expect(readDocument({ _id: 'session:s-1', _rev: REV, _deleted: true })).toEqual({ kind: 'session-purged', rev: REV, session_id: 's-1' });
		expect(reasonFor({ ...messageBody(), _deleted: 'yes' })).toMatch(/“_deleted” is "yes", expected true or false/);
	});

	it('refuses a later format, and fields this app does not know at any depth', () => {
		expect(reasonFor({ ...sessionBody(), format: 2 })).toMatch(/written by a newer Palimpsest \(format 2; this app reads up to 1\)/);
		expect(reasonFor({ ...sessionBody(), format: '1' })).toMatch(/“format” is "1", expected a format version/);
		expect(reasonFor({ ...sessionBody(), api_key: 'sk-x' })).toMatch(/it has “api_key”, a field this app does not know/);
		expect(reasonFor({ ...messageBody(), _local_id: 'x' })).toMatch(/“_local_id”, a field this app does not know/);
		expect(reasonFor({ ...messageBody(), sent: {} })).toMatch(/“sent”, a field this app does not know/);
		expect(reasonFor(JSON.parse(`{"__proto__": {"polluted": 1}, ${JSON.stringify(sessionBody()).slice(1)}`))).toMatch(/“__proto__”/);
		const session = sessionBody();
		expect(reasonFor({ ...session, fields: { ...(session.fields as Body), profile: 'x' } })).toMatch(/“fields” holds a field this app does not know/);
		expect(reasonFor({ ...session, clocks: { ...(session.clocks as Body), profile: P1 } })).toMatch(/“clocks” has “profile”, a field that does not sync/);
		const message = messageBody();
		expect(reasonFor({ ...message, tool_calls: [{ id: 'c', name: 'n', arguments: '{}', extra: 1 }] })).toMatch(/it holds a field this app does not know/);
	});

	it('refuses session fields out of type, length or range, naming the field', () => {
		const session = sessionBody();
		const fields = session.fields as Body;
		expect(reasonFor({ ...session, fields: { ...fields, title: 42 } })).toMatch(/“fields.title” is 42, expected text of at most 1,000 characters/);
		expect(reasonFor({ ...session, fields: { ...fields, title: 'x'.repeat(1001) } })).toMatch(/“fields.title” is "x{30,}…, expected text of at most 1,000/);
		expect(reasonFor({ ...session, fields: { ...fields, archived: true } })).toMatch(/“fields.archived” is true, expected 0, 1/);
		expect(reasonFor({ ...session, fields: { ...fields, parent_kind: 'fork' } })).toMatch(/“fields.parent_kind”/);
		expect(reasonFor({ ...session, fields: { ...fields, model: undefined } })).toMatch(/“fields.model” is missing/);
		expect(reasonFor({ ...session, created_at: -1 })).toMatch(/“created_at” is -1, expected a number from 0/);
		expect(reasonFor({ ...session, deleted_at: 'now' })).toMatch(/“deleted_at” is "now"/);
		expect(reasonFor({ ...session, last_activity_at: 1e300 })).toMatch(/“last_activity_at”/);
		expect(reasonFor({ ...session, clocks: { ...(session.clocks as Body), title: 'later' } })).toMatch(/“clocks.title” is "later", expected a clock/);
		expect(reasonFor({ ...session, clocks: null })).toMatch(/“clocks” is null, expected an object/);
	});

	it('refuses message fields out of type, length or range, and a message still streaming', () => {
		const message = messageBody();
		expect(reasonFor({ ...message, status: 'streaming' })).toMatch(/“status” is "streaming", expected "complete", "aborted", "error", "incomplete"/);
		expect(reasonFor({ ...message, role: 'root' })).toMatch(/“role” is "root"/);
		expect(reasonFor({ ...message, content: { text: 'x' } })).toMatch(/“content” is \{"text":"x"\}, expected text/);
		expect(reasonFor({ ...message, id: '' })).toMatch(/“id” is "", expected non-empty text/);
		expect(reasonFor({ ...message, tokens: Number.NaN })).toMatch(/“tokens”/);
		expect(reasonFor({ ...message, tool_calls: [{ id: 'c', name: 7, arguments: '{}' }] })).toMatch(/“tool_calls.0.name” is 7/);
		expect(reasonFor({ ...message, tool_result: { server: 's', is_error: false, parts: [{ type: 'image', data: 'AAAA' }] } })).toMatch(/“tool_result.parts.0.id” is missing/);
	});

	it('refuses a compaction whose covered positions are malformed, out of order or not before its own', () => {
		expect(reasonFor({ ...messageBody(), covers: 'all' })).toMatch(/“covers” is "all", expected a list of positions/);
		expect(reasonFor({ ...messageBody(), covers: [P1, 'x'] })).toMatch(/“covers.1” is "x", expected a position/);
		expect(reasonFor({ ...messageBody(), covers: [P2, P1] })).toMatch(/not in ascending order/);
		expect(reasonFor({ ...messageBody(), covers: [P1, P1] })).toMatch(/not in ascending order/);
		expect(reasonFor({ ...messageBody(), covers: [P1, P3] })).toMatch(/not before the document's own position/);
	});

	it("reads the Blobs a message names, and of its attachments only those of the size and type it says", () => {
		const stub = (length: number, type = 'image/png') => ({ content_type: type, length, digest: 'md5-x', revpos: 2, stub: true });
		const body = {
			...messageBody(),
			blobs: [
				{ id: 'i1', type: 'image/png', size: 10 },
				{ id: 'i2', type: 'image/png', size: 20 },
				{ id: 'i3', type: 'image/png', size: 30 },
				{ id: 'big', type: 'image/png', size: 99_000_000, limit: 10_000_000 }
			],
			_attachments: { i1: stub(10), i2: stub(21), i3: stub(30, 'text/html'), big: stub(99_000_000), other: stub(5) }
		};
		const read = readDocument(body);
		expect(read).toMatchObject({ kind: 'message', attached: ['i1'], doc: { blobs: body.blobs } });
		expect(reasonFor({ ...messageBody(), blobs: [{ id: 'i1', type: 'image/png', size: 0 }] })).toMatch(/“blobs.0.size” is 0/);
		expect(reasonFor({ ...messageBody(), blobs: [{ id: 'i1', type: 'image/png', size: 1, data: 'AAAA' }] })).toMatch(/“blobs” holds a field this app does not know/);
		expect(reasonFor({ ...messageBody(), blobs: [{ id: 'i1', type: 'image/png', size: 1 }, { id: 'i1', type: 'image/png', size: 1 }] })).toMatch(/names one Blob twice/);
	});
});
