// Cases the model-based test of sync once failed on (sync-fuzz.test.ts runs each in its short
// pass): the operations exactly as they failed, since a seed draws other operations once the
// list of operations changes.
import type { Op } from './sync-fuzz-model';

export interface FixedCase {
	/** What went wrong, and the seed that found it. */
	name: string;
	passphrase?: string;
	/** Which run: three devices at once (the default), or synced after each operation and compared with one device alone. */
	mode?: 'concurrent' | 'sequential';
	skews: [number, number, number];
	ops: Op[];
 }

export const FIXED_CASES: FixedCase[] = [
	{
		name: 'seed 20260101: a session deleted with messages only its device held, then restored elsewhere without them',
		skews: [3, -21599998, 7279805],
		ops: [
			{ kind: 'switch', device: 0, session: 7, nth: 3 },
			{ kind: 'edit-summary', device: 2, session: 2 },
			{ kind: 'sync', device: 2 },
			{ kind: 'undo', device: 2, session: 14 },
			{ kind: 'restore', device: 0, session: 7 },
			{ kind: 'archive', device: 0, session: 12, on: true },
			{ kind: 'continue-answer', device: 0, answer: 0 },
			{ kind: 'finish-answer', device: 1, answer: 1, status: 'complete' },
			{ kind: 'prune', device: 2, session: 4 },
			{ kind: 'fault', fault: 'restart' },
			{ kind: 'regenerate', device: 0, session: 4 },
			{ kind: 'restore', device: 2, session: 2 },
			{ kind: 'continue-answer', device: 2, answer: 1 },
			{ kind: 'archive', device: 1, session: 19, on: true },
			{ kind: 'edit', device: 0, session: 14, nth: 2 },
			{ kind: 'regenerate', device: 2, session: 0 },
			{ kind: 'switch', device: 0, session: 2, nth: 3 },
			{ kind: 'delete', device: 0, session: 4 },
			{ kind: 'rotate', device: 0, session: 4 },
			{ kind: 'prune', device: 1, session: 20 },
			{ kind: 'pin', device: 1, session: 8, on: true },
			{ kind: 'sync', device: 0 },
			{ kind: 'prune', device: 0, session: 16 },
			{ kind: 'sync', device: 1 },
			{ kind: 'restore', device: 1, session: 2 },
			{ kind: 'switch', device: 2, session: 9, nth: 5 },
			{ kind: 'new', device: 1 },
			{ kind: 'tool', device: 2, session: 19, text: 'tea' },
			{ kind: 'send', device: 0, session: 2, text: 'the weather' },
			{ kind: 'sync', device: 2 }
		]
	},
	{
		name: 'seed 780 (with a passphrase): a session deleted with its compression lineage while an answer streamed in the parent',
		passphrase: 'fuzz passphrase',
		skews: [9868688, -21, 8750634],
		ops: [
			{ kind: 'delete', device: 1, session: 18 },
			{ kind: 'send', device: 1, session: 4, text: 'a list' },
			{ kind: 'rotate', device: 1, session: 0 },
			{ kind: 'start-answer', device: 1, session: 20, text: 'a list' },
			{ kind: 'delete', device: 1, session: 5 }
		]
	},
	{
		name: 'seed 20260102 (synced after each operation): a pruned tool result named its message with an id of the device that pruned it',
		mode: 'sequential',
		skews: [-17,  -6,  -14336452],
		ops: [
			{ kind: 'edit', device: 0, session: 11, nth: 0 },
			{ kind: 'prune', device: 1, session: 18 },
			{ kind: 'new', device: 1 },
			{ kind: 'compact', device: 0, session: 20 },
			{ kind: 'edit-summary', device: 1, session: 1 },
			{ kind: 'attach', device: 0, session: 2, text: 'plans' },
			{ kind: 'send', device: 2, session: 17, text: 'a poem' },
			{ kind: 'new', device: 0 },
			{ kind: 'edit', device: 2, session: 20, nth: 5 },
			{ kind: 'edit', device: 1, session: 3, nth: 0 },
			{ kind: 'remove-failed', device: 2, session: 2 },
			{ kind: 'rotate', device: 1, session: 10 },
			{ kind: 'prune', device: 0, session: 1 },
			{ kind: 'regenerate', device: 0, session: 20 },
			{ kind: 'tool', device: 2, session: 0, text: 'a list' },
			{ kind: 'restore', device: 1, session: 1 },
			{ kind: 'sync', device: 0 },
			{ kind: 'remove-failed', device: 0, session: 3 },
			{ kind: 'start-answer', device: 2, session: 1, text: 'the weather' },
			{ kind: 'sync', device: 1 },
			{ kind: 'restore', device: 1, session: 4 },
			{ kind: 'prune', device: 1, session: 0 },
			{ kind: 'edit-summary', device: 0, session: 0 },
			{ kind: 'finish-answer', device: 2, answer: 10, status: 'complete' },
			{ kind: 'finish-answer', device: 1, answer: 0, status: 'error' },
			{ kind: 'start-answer', device: 0, session: 2, text: 'numbers' },
			{ kind: 'archive', device: 1, session: 0, on: true },
			{ kind: 'sync', device: 0 },
			{ kind: 'start-answer', device: 1, session: 5, text: 'the weather' },
			{ kind: 'switch', device: 0, session: 3, nth: 5 }
		]
	},
	{
		name: 'seed 786911755: a file sent to a session as another device deleted it was lost when a third restored the session',
		skews: [2, 1, -17],
		ops: [
			{ kind: 'delete', device: 1, session: 0 },
			{ kind: 'attach', device: 0, session: 0, text: 'numbers' },
			{ kind: 'sync', device: 1 },
			{ kind: 'sync', device: 0 },
			{ kind: 'restore', device: 1, session: 0 },
			{ kind: 'sync', device: 2 }
		]
	},
	{
		name: 'seed 786911757 (with a passphrase): an answer that finished after its session was deleted elsewhere never reached the devices that restored it',
		passphrase: 'fuzz passphrase',
		skews: [-4, -7951006, 11],
		ops: [
			{ kind: 'start-answer', device: 0, session: 15, text: 'plans' },
			{ kind: 'delete', device: 1, session: 1 },
			{ kind: 'sync', device: 1 },
			{ kind: 'sync', device: 2 },
			{ kind: 'restore', device: 2, session: 9 },
			{ kind: 'sync', device: 0 }
		]
	},
	{
		name: 'clocks hours apart (synced after each operation): a compaction undone on another device',
		mode: 'sequential',
		skews: [0, 6147388, -21599999],
		ops: [
			{ kind: 'new', device: 0 },
			{ kind: 'tool', device: 0, session: 17, text: 'tea' },
			{ kind: 'prune', device: 1, session: 19 },
			{ kind: 'compact', device: 0, session: 10 },
			{ kind: 'undo', device: 1, session: 2 }
		]
	}
];
