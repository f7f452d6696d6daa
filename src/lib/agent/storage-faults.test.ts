import 'fake-indexeddb/auto';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { PalimpsestDb } from '../db/database';
import { listMessages } from '../db/message-verbs';
import { simulateFullDisk, type FullDisk } from '../db/test-full-disk';
import type { Provider, StreamEvent } from '../providers/types';
import { createSession } from '../sessions/session-lifecycle';
import { runTurn } from './run-turn';
import type { TurnDeps, TurnEvent } from './turn-deps';

let db: PalimpsestDb;
let disk: FullDisk;
beforeEach(async () => {
	db = new PalimpsestDb(`faults-${crypto.randomUUID()}`);
	disk = await simulateFullDisk(db);
});
afterEach(async () => {
	db.close();
	await db.delete();
});

const WORDS = Array.from({ length: 12 }, (_, i) => `word${i} `);
const tick = () => new Promise((done) => setTimeout(done, 5));

/** A provider that streams WORDS, calling `at(i)` before word i (to fill or free the disk). */
function streaming(at: (i: number) => void): Provider {
	return {
		id: 'scripted',
		label: 'Scripted',
		offline: true,
		async *stream(): AsyncGenerator<StreamEvent> {
			for (const [i, word] of WORDS.entries()) {
				at(i);
				await tick();
				yield { type: 'text', text: word };
			}
			yield { type: 'done', finish_reason: 'stop' };
		}
	};
}

async function turnWith(provider: Provider) {
	const session = await createSession({ db, profile: 'default', platform: 'web' }, { provider: 'scripted', model: 'm' });
	const deps: TurnDeps = { db, provider, model: 'm', profile: 'default', platform: 'web', checkpointMs: 0 };
	const events: TurnEvent[] = [];
	const shown: string[] = [];
	const result = await runTurn(deps, {
		sessionId: session.id,
		text: 'Tell me',
		onEvent: (event) => {
			events.push(event);
			if (event.type === 'text') shown.push(event.text);
		}
	});
	return { sessionId: session.id, result, events, shown, rows: await listMessages(db, session.id) };
}

describe('storage that fails while an answer streams', () => {
	it('keeps streaming into memory and, once a write lands again, stores the whole answer as failed with the reason', async () => {
		// Full from the third word to the ninth: those checkpoints fail; later ones land.
		const { result, shown, rows } = await turnWith(streaming((i) => (i === 3 ? disk.fill() : i === 9 ? disk.free() : undefined)));
		const whole = WORDS.join('');
		expect(shown.at(-1)).toBe(whole);
		expect(result).toMatchObject({ status: 'error', content: whole });
		expect(rows[1]).toMatchObject({ role: 'assistant', status: 'error', content: whole });
		expect(rows[1].error).toMatch(/could not be stored while it was written: storage is full/);
	});

	it('ends the turn with the whole answer handed over in memory when no write lands, and nothing stored is lost', async () => {
		const { result, events, rows } = await turnWith(streaming((i) => i === 3 && disk.fill()));
		const whole = WORDS.join('');
		const unsaved = events.find((e) => e.type === 'unsaved');
		expect(unsaved).toMatchObject({ type: 'unsaved', key: [rows[1].session_id, rows[1].seq], text: whole });
		expect((unsaved as { error: string }).error).toMatch(/not saved: storage is full/);
		expect(result).toMatchObject({ status: 'error', content: whole });
		// The question and the words checkpointed before the disk filled are still there.
		expect(rows[0]).toMatchObject({ role: 'user', content: 'Tell me', status: 'complete' });
		expect(whole.startsWith(rows[1].content)).toBe(true);
		expect(rows[1].content.length).toBeGreaterThan(0);
		expect(events.some((e) => e.type === 'finished')).toBe(false);
	});
});
