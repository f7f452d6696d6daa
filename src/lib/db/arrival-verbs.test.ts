// Messages from another device land where their positions put them, so two devices that wrote
// to one session, each with its own clock, show its messages in the same order.
import 'fake-indexeddb/auto';
import { afterEach, describe, expect, it } from 'vitest';
import { insertArrivedMessages, type ArrivedMessage } from './arrival-verbs';
import { PalimpsestDb } from './database';
import { appendMessages, listMessages, type NewMessage } from './message-verbs';
import type { MessageRow } from './schema';
import { insertSession } from './session-verbs';
import { testSessionRow } from './test-session-row';

const T = Date.UTC(2026, 0, 1);
const opened: PalimpsestDb[] = [];
afterEach(async () => {
	for (const db of opened.splice(0)) {
		db.close();
		await db.delete();
	}
});

async function device(): Promise<PalimpsestDb> {
	const db = new PalimpsestDb(`arrivals-${crypto.randomUUID()}`);
	opened.push(db);
	await insertSession(db, testSessionRow('s1', { title: 'Trip', title_source: 'user' }));
	return db;
}

const said = (id: string): NewMessage => ({ id, role: 'user', kind: 'message', status: 'complete', content: id, created_at: T });

/** A row as another device receives it: its content and position, nothing of where it sits here. */
const sent = ({ session_id: _s, seq: _q, active: _a, compacted_by: _c, ...row }: MessageRow): ArrivedMessage => row;

const ids = async (db: PalimpsestDb) => (await listMessages(db, 's1')).map((row) => row.id);

describe('insertArrivedMessages', () => {
	it('gives two devices with skewed clocks that append while apart, then exchange, the same order: the order of positions', async () => {
		const [laptop, phone] = [await device(), await device()];
		// Both start from the same message, then each writes offline; the phone's clock is five minutes behind.
		const [first] = await appendMessages(laptop, 's1', [said('start')], T);
		await insertArrivedMessages(phone, 's1', [sent(first)]);
		const fromLaptop: MessageRow[] = [];
		const fromPhone: MessageRow[] = [];
		for (let i = 0; i < 4; i++) {
			fromLaptop.push(...(await appendMessages(laptop, 's1', [said(`laptop ${i}`)], T + 1_000 * (2 * i + 1))));
			fromPhone.push(...(await appendMessages(phone, 's1', [said(`phone ${i}`)], T - 300_000 + 1_000 * (2 * i + 2))));
		}
		await insertArrivedMessages(laptop, 's1', fromPhone.map(sent));
		await insertArrivedMessages(phone, 's1', fromLaptop.map(sent));
		const order = await ids(laptop);
		expect(await ids(phone)).toEqual(order);
		const byPosition = [first, ...fromLaptop, ...fromPhone].sort((a, b) => (a.position < b.position ? -1 : 1)).map((row) => row.id);
		expect(order).toEqual(byPosition);
		expect(order[0]).toBe('start');
		// A reply written after the exchange sorts after everything either device had written.
		const [reply] = await appendMessages(phone, 's1', [said('reply')], T - 200_000);
		await insertArrivedMessages(laptop, 's1', [sent(reply)]);
		expect((await ids(laptop)).at(-1)).toBe('reply');
		expect(await ids(phone)).toEqual(await ids(laptop));
		for (const db of [laptop, phone]) expect(await db.sessions.get('s1')).toMatchObject({ message_count: 10, next_seq: expect.any(Number) });
	});

	it('places a message between the two local messages whose positions surround it, at a seq between theirs, renumbering nothing', async () => {
		const [here, there] = [await device(), await device()];
		const [a] = await appendMessages(here, 's1', [said('a')], T);
		await insertArrivedMessages(there, 's1', [sent(a)]);
		// "there" answers at T + 1; "here" writes b at T + 2 before it hears of it.
		const [between] = await appendMessages(there, 's1', [said('between')], T + 1);
		const [b] = await appendMessages(here, 's1', [said('b')], T + 2);
		const [stored] = await insertArrivedMessages(here, 's1', [sent(between)]);
		expect(stored.seq).toBeGreaterThan(a.seq);
		expect(stored.seq).toBeLessThan(b.seq);
		const rows = await listMessages(here, 's1');
		expect(rows.map((row) => [row.id, row.seq])).toEqual([['a', 0], ['between', stored.seq], ['b', 1]]);
		expect(await here.sessions.get('s1')).toMatchObject({ message_count: 3, next_seq: 2 });
		// The next append still goes at the end, after all three.
		const [c] = await appendMessages(here, 's1', [said('c')], T + 3);
		expect(c).toMatchObject({ seq: 2 });
		expect(c.position > b.position).toBe(true);
	});

	it('places a message that sorts before every local one before them, and one past them all at the next whole seq', async () => {
		const [here, there] = [await device(), await device()];
		const [early] = await appendMessages(there, 's1', [said('early')], T);
		await appendMessages(here, 's1', [said('mine')], T + 5);
		const [late] = await appendMessages(there, 's1', [said('late')], T + 10);
		const stored = await insertArrivedMessages(here, 's1', [sent(late), sent(early)]);
		expect(stored.map((row) => [row.id, row.seq])).toEqual([['early', -1], ['late', 1]]);
		expect(await ids(here)).toEqual(['early', 'mine', 'late']);
		expect(await here.sessions.get('s1')).toMatchObject({ message_count: 3, next_seq: 2 });
	});

	it('is idempotent: a message that arrives again, or twice in one batch, is stored once', async () => {
		const [here, there] = [await device(), await device()];
		const rows = await appendMessages(there, 's1', [said('x'), said('y')], T);
		await appendMessages(here, 's1', [said('mine')], T + 1);
		expect(await insertArrivedMessages(here, 's1', [...rows.map(sent), sent(rows[0])])).toHaveLength(2);
		const once = await listMessages(here, 's1');
		const session = await here.sessions.get('s1');
		expect(await insertArrivedMessages(here, 's1', rows.map(sent))).toEqual([]);
		expect(await listMessages(here, 's1')).toEqual(once);
		expect(await here.sessions.get('s1')).toEqual(session);
		expect(session).toMatchObject({ message_count: 3 });
	});

	it('refuses a message without a valid position, storing nothing of the batch', async () => {
		const here = await device();
		const [row] = await appendMessages(here, 's1', [said('a')], T);
		const good = { ...sent(row), id: 'b', position: row.position.slice(0, -1) + (row.position.endsWith('Z') ? 'Y' : 'Z') };
		await expect(insertArrivedMessages(here, 's1', [good, { ...sent(row), id: 'c', position: 'not a position' }])).rejects.toThrow(/Not a position/);
		expect(await ids(here)).toEqual(['a']);
	});
});
