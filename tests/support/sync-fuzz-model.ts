// What the model-based test of sync does (sync-fuzz.ts): its operations and how they are drawn,
// the faults of the network and server, and the tallies `npm run fuzz:sync` prints.
import fc from 'fast-check';

export type Op =
	| { kind: 'new'; device: number }
	| { kind: 'send'; device: number; session: number; text: string }
	| { kind: 'start-answer'; device: number; session: number; text: string }
	| { kind: 'continue-answer'; device: number; answer: number }
	| { kind: 'finish-answer'; device: number; answer: number; status: 'complete' | 'error' }
	| { kind: 'tool'; device: number; session: number; text: string }
	| { kind: 'attach'; device: number; session: number; text: string }
	| { kind: 'edit'; device: number; session: number; nth: number }
	| { kind: 'regenerate'; device: number; session: number }
	| { kind: 'switch'; device: number; session: number; nth: number }
	| { kind: 'compact'; device: number; session: number }
	| { kind: 'rotate'; device: number; session: number }
	| { kind: 'prune'; device: number; session: number }
	| { kind: 'undo'; device: number; session: number }
	| { kind: 'edit-summary'; device: number; session: number }
	| { kind: 'remove-failed'; device: number; session: number }
	| { kind: 'delete'; device: number; session: number }
	| { kind: 'archive'; device: number; session: number; on: boolean }
	| { kind: 'rename'; device: number; session: number; title: string }
	| { kind: 'pin'; device: number; session: number; on: boolean }
	| { kind: 'restore'; device: number; session: number }
	| { kind: 'sync'; device: number }
	| { kind: 'fault'; fault: 'drop' | 'conflict' | 'recreate' | 'restart' };

const device = fc.integer({ min: 0, max: 2 });
const session = fc.nat(20);
const text = fc.constantFrom('plans', 'a list', 'the weather', 'tea', 'a poem', 'numbers');
const nth = fc.nat(5);

/** One operation on a device (or a fault of the network or the server). */
export const opArbitrary: fc.Arbitrary<Op> = fc.oneof(
	{ weight: 1, arbitrary: fc.record({ kind: fc.constant('new' as const), device }) },
	{ weight: 8, arbitrary: fc.record({ kind: fc.constant('send' as const), device, session, text }) },
	{ weight: 3, arbitrary: fc.record({ kind: fc.constant('start-answer' as const), device, session, text }) },
	{ weight: 3, arbitrary: fc.record({ kind: fc.constant('continue-answer' as const), device, answer: fc.nat(10) }) },
	{ weight: 4, arbitrary: fc.record({ kind: fc.constant('finish-answer' as const), device, answer: fc.nat(10), status: fc.constantFrom('complete' as const, 'error' as const) }) },
	{ weight: 3, arbitrary: fc.record({ kind: fc.constant('tool' as const), device, session, text }) },
	{ weight: 2, arbitrary: fc.record({ kind: fc.constant('attach' as const), device, session, text }) },
	{ weight: 4, arbitrary: fc.record({ kind: fc.constant('edit' as const), device, session, nth }) },
	{ weight: 4, arbitrary: fc.record({ kind: fc.constant('regenerate' as const), device, session }) },
	{ weight: 5, arbitrary: fc.record({ kind: fc.constant('switch' as const), device, session, nth }) },
	{ weight: 4, arbitrary: fc.record({ kind: fc.constant('compact' as const), device, session }) },
	{ weight: 2, arbitrary: fc.record({ kind: fc.constant('rotate' as const), device, session }) },
	{ weight: 4, arbitrary: fc.record({ kind: fc.constant('prune' as const), device, session }) },
	{ weight: 4, arbitrary: fc.record({ kind: fc.constant('undo' as const), device, session }) },
	{ weight: 3, arbitrary: fc.record({ kind: fc.constant('edit-summary' as const), device, session }) },
	{ weight: 3, arbitrary: fc.record({ kind: fc.constant('remove-failed' as const), device, session }) },
	{ weight: 3, arbitrary: fc.record({ kind: fc.constant('delete' as const), device, session }) },
	{ weight: 2, arbitrary: fc.record({ kind: fc.constant('archive' as const), device, session, on: fc.boolean() }) },
	{ weight: 2, arbitrary: fc.record({ kind: fc.constant('rename' as const), device, session, title: text }) },
	{ weight: 2, arbitrary: fc.record({ kind: fc.constant('pin' as const), device, session, on: fc.boolean() }) },
	{ weight: 4, arbitrary: fc.record({ kind: fc.constant('restore' as const), device, session }) },
	{ weight: 10, arbitrary: fc.record({ kind: fc.constant('sync' as const), device }) },
	{ weight: 3, arbitrary: fc.record({ kind: fc.constant('fault' as const), fault: fc.constantFrom('drop' as const, 'conflict' as const, 'recreate' as const, 'restart' as const) }) }
);

/** What the network and server do next, for the faulty fetch every device uses. */
export interface Faults {
	/** The next request reaches the server, and its answer is lost. */
	drop: boolean;
	/** The next `_bulk_docs` answer says one of its documents met a conflict (which it did not). */
	conflict: boolean;
}

/** A fetch that obeys `faults` once each (to the server where it is now: see FuzzServer.route). */
export function faultyFetch(faults: Faults, route: (url: string) => string = (url) => url): typeof fetch {
	return async (input, init) => {
		const response = await fetch(route(String(input)), init);
		if (faults.drop) {
			faults.drop = false;
			tally.faults.drop += 1;
			await response.body?.cancel();
			throw new TypeError('Failed to fetch');
		}
		if (faults.conflict && String(input).endsWith('/_bulk_docs') && response.ok) {
			faults.conflict = false;
			const results = (await response.json()) as Array<Record<string, unknown>>;
			if (results.length) results[0] = { id: results[0].id, error: 'conflict', reason: 'Document update conflict.' };
			if (results.length) tally.faults.conflict += 1;
			return new Response(JSON.stringify(results), { status: 201, headers: { 'content-type': 'application/json' } });
		}
		return response;
	};
}

/** The server the devices sync through, with what a fault may do to it. */
export interface FuzzServer {
	/** A new, empty database's URL. */
	newDatabase(): Promise<string>;
	/** `url` at the server's address now (a restart may have had to take another port). */
	route(url: string): string;
	recreate(url: string): Promise<void>;
	restart(): Promise<void>;
}

/** Operations of each kind that did something, over every run (printed by `npm run fuzz:sync`). */
export const effective = new Map<string, number>();

/** What the runs did, over every run (printed by `npm run fuzz:sync`). */
export const tally = {
	runs: 0,
	ops: 0,
	/** Sync passes, those of the operations and those that brought the devices to quiet. */
	syncs: 0,
	/** Faults that really struck: answers lost, 409s sent, restarts, databases recreated. */
	faults: { drop: 0, conflict: 0, restart: 0, recreate: 0 },
	/** Sessions and messages compared: across the three devices, and (synced after each operation) with one device alone. */
	sessions: 0,
	messages: 0
};
