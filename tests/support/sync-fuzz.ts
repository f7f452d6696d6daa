// The model-based test of sync (run by sync-fuzz.test.ts, and at length by `npm run fuzz:sync`):
// three devices, each a profile database with the app's own verbs, sync through a real
// pouchdb-server while random operations (send, an answer streaming in parts, a tool call,
// attach, edit, regenerate, switch version, compact in place or into a child session, prune,
// undo, edit summary, remove a failed answer, delete, archive, rename, pin, and Restore of a
// session deleted on another device), sync schedules and faults happen (dropped answers, 409s, a
// server restart, a recreated database, clocks hours apart). Once sync is quiet, every device
// must show the same conversation and build the same request for every session, keep every
// session no one deleted and every message no one removed, and hold its rows exactly as the
// shared derivation says; and a run with full syncs between operations must end as the same
// operations on one device do.
import { deriveConversation } from '../../src/lib/db/conversation';
import { listMessages } from '../../src/lib/db/message-verbs';
import { Device, quiesce as quiesceAll, type DeviceOptions } from './sync-device';
import { effective, faultyFetch, tally, type Faults, type FuzzServer, type Op } from './sync-fuzz-model';

/** Brings the devices to quiet, counting the passes. */
async function quiesce(devices: readonly Device[]): Promise<void> {
	tally.syncs += await quiesceAll(devices);
}

/** Sessions by creation order, messages made and removed: what the no-loss check needs. */
interface Ledger {
	sessions: string[];
	answers: Array<{ device: number; key: [string, number] }>;
	deleted: Set<string>;
	/** Sessions some device deleted at some time (the others must be on every device at the end). */
	everDeleted: Set<string>;
	/** Messages (session id / message id) the devices' operations wrote, and those an operation took away. */
	written: Set<string>;
	removed: Set<string>;
}

const newLedger = (): Ledger => ({ sessions: [], answers: [], deleted: new Set(), everDeleted: new Set(), written: new Set(), removed: new Set() });

/** The device `first`, or the next after it, with a session in Recently deleted (else `first`). */
async function holdingTrash(devices: readonly Device[], first: number): Promise<Device> {
	for (let i = 0; i < devices.length; i++) {
		const device = devices[(first + i) % devices.length];
		if ((await device.trashIds()).length) return device;
	}
	return devices[first % devices.length];
}

/** The messages `device` holds and no other device does. */
async function heldOnlyBy(device: Device, devices: readonly Device[]): Promise<Set<string>> {
	const mine = await messageKeys(device);
	for (const other of devices) if (other !== device) for (const key of await messageKeys(other)) mine.delete(key);
	return mine;
}

/** Every message a device holds, as session id / message id. */
async function messageKeys(device: Device): Promise<Set<string>> {
	return new Set((await device.db.messages.toArray()).map((row) => `${row.session_id}/${row.id}`));
}

/** Applies one operation (a no-op where the device lacks what it names), counting those that did something. */
async function apply(op: Op, devices: readonly Device[], ledger: Ledger, faults: Faults, server: FuzzServer, url: string): Promise<void> {
	// What the operation itself wrote and took away on its device (a sync's arrivals are neither).
	const acting = op.kind === 'fault' || op.kind === 'sync' ? undefined : op.kind === 'restore' ? await holdingTrash(devices, op.device) : devices[op.device % devices.length];
	const before = acting && (await messageKeys(acting));
	// A deleted session's messages go with it; but a Restore elsewhere brings back those another device held.
	const only = op.kind === 'delete' ? await heldOnlyBy(devices[op.device % devices.length], devices) : new Set<string>();
	const did = await act(op, devices, ledger, faults, server, url);
	if (acting && before) {
		const after = await messageKeys(acting);
		for (const key of after) if (!before.has(key)) ledger.written.add(key);
		for (const key of before) if (!after.has(key) && (op.kind !== 'delete' || only.has(key))) ledger.removed.add(key);
	}
	if (did !== false) effective.set(op.kind === 'fault' ? op.fault : op.kind, (effective.get(op.kind === 'fault' ? op.fault : op.kind) ?? 0) + 1);
}

async function act(op: Op, devices: readonly Device[], ledger: Ledger, faults: Faults, server: FuzzServer, url: string): Promise<boolean | void> {
	if (op.kind === 'fault') {
		if (op.fault === 'drop') faults.drop = true;
		else if (op.fault === 'conflict') faults.conflict = true;
		else if (op.fault === 'recreate') {
			await server.recreate(url);
			tally.faults.recreate += 1;
		} else {
			await server.restart();
			tally.faults.restart += 1;
		}
		return;
	}
	// Restore is done where a session waits in Recently deleted: on the device named, or the next that has one.
	const device = op.kind === 'restore' ? await holdingTrash(devices, op.device) : devices[op.device % devices.length];
	if (op.kind === 'new') {
		ledger.sessions.push(await device.newSession());
		return;
	}
	if (op.kind === 'sync') {
		tally.syncs += 1;
		await device.sync().catch(() => {});
		return;
	}
	if (op.kind === 'finish-answer' || op.kind === 'continue-answer') {
		const pending = ledger.answers.filter((answer) => devices[answer.device] === device);
		const answer = pending[op.answer % Math.max(1, pending.length)];
		if (!answer) return false;
		if (op.kind === 'continue-answer') return device.continueAnswer(answer.key);
		ledger.answers.splice(ledger.answers.indexOf(answer), 1);
		await device.finishAnswer(answer.key, op.status);
		return;
	}
	// A session this device holds (in the trash, for Restore), by its place among the sessions made.
	const here = new Set(op.kind === 'restore' ? await device.trashIds() : await device.sessionIds());
	const mine = ledger.sessions.filter((id) => here.has(id));
	const sessionId = mine[op.session % Math.max(1, mine.length)];
	if (sessionId === undefined) return false;
	if (op.kind === 'restore') {
		if (!(await device.restore(sessionId))) return false;
		ledger.deleted.delete(sessionId);
		return;
	}
	// An answer still streaming holds its session: the app takes no other action on it meanwhile.
	if (ledger.answers.some((answer) => devices[answer.device] === device && answer.key[0] === sessionId)) return false;
	switch (op.kind) {
		case 'send':
			return device.send(sessionId, op.text);
		case 'start-answer':
			ledger.answers.push({ device: devices.indexOf(device), key: await device.startAnswer(sessionId, op.text) });
			return;
		case 'tool':
			return device.sendWithTool(sessionId, op.text);
		case 'attach':
			return device.attach(sessionId, op.text);
		case 'edit':
			return device.edit(sessionId, op.nth);
		case 'regenerate':
			return device.regenerate(sessionId);
		case 'switch':
			return device.switchVersion(sessionId, op.nth);
		case 'compact':
			return device.compact(sessionId);
		case 'rotate': {
			const child = await device.rotate(sessionId);
			if (child === null) return false;
			ledger.sessions.push(child);
			return;
		}
		case 'prune':
			return device.prune(sessionId);
		case 'undo':
			return device.undo(sessionId);
		case 'edit-summary':
			return device.editSummary(sessionId);
		case 'remove-failed':
			return device.removeFailed(sessionId);
		case 'delete': {
			// A session's compression lineage goes with it.
			const had = await device.sessionIds();
			await device.delete(sessionId);
			const left = new Set(await device.sessionIds());
			for (const id of had.filter((id) => !left.has(id))) {
				ledger.deleted.add(id);
				ledger.everDeleted.add(id);
			}
			// Deleting stops the device's turns in every session it took.
			for (const answer of ledger.answers.filter((answer) => devices[answer.device] === device && !left.has(answer.key[0]))) {
				ledger.answers.splice(ledger.answers.indexOf(answer), 1);
				device.streaming.delete(answer.key[0]);
			}
			return;
		}
		case 'archive':
			return device.archive(sessionId, op.on);
		case 'rename':
			return device.rename(sessionId, op.title);
		case 'pin':
			return device.pin(sessionId, op.on);
	}
}

/** What a device holds of every session, for comparing devices. */
async function views(device: Device): Promise<Map<string, { conversation: unknown; request: unknown }>> {
	const out = new Map<string, { conversation: unknown; request: unknown }>();
	for (const id of await device.sessionIds()) out.set(id, { conversation: await device.conversation(id), request: await device.request(id) });
	return out;
}

/** The device's rows hold what the shared derivation says of them (the tables are a cache of it). */
async function expectDerived(device: Device, expectEqual: (a: unknown, b: unknown, what: string) => void): Promise<void> {
	for (const id of await device.sessionIds()) {
		const session = (await device.db.sessions.get(id))!;
		const rows = await listMessages(device.db, id);
		const derived = deriveConversation(session.version_shown, rows);
		expectEqual(
			rows.map((row) => [row.active, row.shelved ?? null]),
			derived.rows.map((state) => [state.active, state.shelved ?? null]),
			`the rows of ${id} on ${device.profile} as derived`
		);
		expectEqual(session.versions ?? [], derived.versions, `the versions of ${id} on ${device.profile}`);
	}
}

/**
 * The batches each device works in: the app's own, and smaller ones, so that a few rows take
 * several requests, pages and slices of the outbox (each read while the one before is on its way).
 */
const SIZES: DeviceOptions[] = [{}, { loop: { batchBytes: 1_500, pullLimit: 3 }, store: { stampChunk: 2 } }, { loop: { batchBytes: 6_000, pullLimit: 12 }, store: { stampChunk: 7 } }];

/** `passphrase`: every device syncs with it (the database encrypted). */
export interface RunOptions {
	passphrase?: string;
}

export interface RunResult {
	ops: number;
	sessions: number;
	messages: number;
}

/**
 * Runs `ops` on three devices (finishing every answer, then syncing until quiet) and checks that
 * they agree, lost nothing and hold their rows as derived. Throws on the first difference.
 */
export async function runConcurrent(ops: readonly Op[], server: FuzzServer, skews: readonly number[], expectEqual: (a: unknown, b: unknown, what: string) => void, { passphrase }: RunOptions = {}): Promise<RunResult> {
	const url = await server.newDatabase();
	const faults: Faults = { drop: false, conflict: false };
	const devices = skews.map((skewMs, index) => new Device(url, `d${index}`, { skewMs, fetch: faultyFetch(faults, (url) => server.route(url)), seed: index + 1, ...SIZES[index % SIZES.length], ...(passphrase ? { passphrase } : {}) }));
	const ledger = newLedger();
	try {
		// Two conversations every device holds to begin with.
		for (let i = 0; i < 2; i++) {
			ledger.sessions.push(await devices[0].newSession());
			await devices[0].send(ledger.sessions[i], 'a first question');
		}
		await quiesce(devices);
			for (const op of ops) {
			try {
				await apply(op, devices, ledger, faults, server, url);
			} catch (error) {
				if (process.env.SYNC_FUZZ_DEBUG) console.log('FAILED OP', JSON.stringify(op), (error as Error).stack);
				throw error;
			}
		}
		for (const answer of ledger.answers.splice(0)) await devices[answer.device].finishAnswer(answer.key);
		faults.drop = faults.conflict = false;
		try {
			await quiesce(devices);
		} catch (error) {
			if (process.env.SYNC_FUZZ_DEBUG) console.log('FAILED QUIESCE', (error as Error).stack);
			throw error;
		}
		const [first, ...others] = await Promise.all(devices.map(views));
		try {
			for (const [index, other] of others.entries()) {
				expectEqual([...other.keys()].sort(), [...first.keys()].sort(), `the sessions on device ${index + 1} and device 0`);
				for (const [id, view] of first) expectEqual(other.get(id), view, `session ${id} on device ${index + 1} and device 0`);
			}
		} catch (error) {
			if (process.env.SYNC_FUZZ_DEBUG) {
				const dump = await Promise.all(devices.map(async (device) => ({ docs: await device.db.sync_docs.toArray(), outbox: await device.db.sync_outbox.toArray(), meta: await device.db.sync_meta.toArray() })));
				const { writeFileSync } = await import('node:fs');
				writeFileSync('/tmp/sync-fuzz-dump.json', JSON.stringify({ ops, dump }, null, 1));
			}
			throw error;
		}
		// Nothing lost: every message any device holds of a live session, every device holds.
		const held = new Map<string, Set<string>>();
		for (const device of devices) for (const id of await device.sessionIds()) for (const row of await listMessages(device.db, id)) (held.get(id) ?? held.set(id, new Set()).get(id)!).add(row.id);
		for (const device of devices) for (const [id, ids] of held) expectEqual(new Set((await listMessages(device.db, id)).map((row) => row.id)), ids, `the messages of ${id} on ${device.profile}`);
		// Nothing lost that no one removed: every session no one deleted is here, with every message written to it and not taken away.
		const live = new Set(first.keys());
		expectEqual(ledger.sessions.filter((id) => !ledger.everDeleted.has(id) && !live.has(id)), [], 'sessions no one deleted, missing');
		const missing = [...ledger.written].filter((key) => !ledger.removed.has(key) && live.has(key.split('/')[0]) && !held.get(key.split('/')[0])?.has(key.slice(key.indexOf('/') + 1)));
		expectEqual(missing, [], 'messages no one removed, missing');
		for (const device of devices) await expectDerived(device, expectEqual);
		if (passphrase) {
			// Encrypted: nothing the devices said is on the server in the clear.
			const stored = await (await fetch(server.route(`${url}/_all_docs?include_docs=true`))).text();
			for (const said of ['a first question', 'answer to', 'summary of']) expectEqual(stored.includes(said), false, `"${said}" in the clear on the server`);
		}
		return { ops: ops.length, sessions: first.size, messages: [...held.values()].reduce((sum, ids) => sum + ids.size, 0) };
	} finally {
		for (const device of devices) await device.close();
	}
}

/** A conversation without what differs between runs (ids, times, positions; whether a session ended, not when): what was said and shown, in order. */
function shape(view: { conversation: unknown; request: unknown } | undefined): unknown {
	const replace = (key: string, value: unknown) => (['id', 'compacted_by', 'compaction', 'attachments', 'missing', 'session_key', 'tool_call_id', 'parent_session_id'].includes(key) ? undefined : key === 'ended_at' ? value !== null : value);
	return JSON.parse(JSON.stringify(view ?? null, replace).replace(/(m|img|c|p|call)-[a-z0-9-]{6}-\d+/g, 'x'));
}

/**
 * The same operations, once taken in turn by three devices that sync fully after each, once all on
 * one device: both end with the same conversations.
 */
export async function runSequential(ops: readonly Op[], server: FuzzServer, skews: readonly number[], expectEqual: (a: unknown, b: unknown, what: string) => void, { passphrase }: RunOptions = {}): Promise<RunResult> {
	const calm = ops.filter((op) => !['fault', 'sync', 'start-answer', 'continue-answer', 'finish-answer', 'restore'].includes(op.kind));
	const url = await server.newDatabase();
	const faults: Faults = { drop: false, conflict: false };
	const devices = skews.map((skewMs, index) => new Device(url, `s${index}`, { skewMs, seed: index + 11, ...(passphrase ? { passphrase } : {}) }));
	const alone = new Device(await server.newDatabase(), 'alone', { seed: 21 });
	const [together, single] = [newLedger(), newLedger()];
	try {
		for (const op of calm) {
			await apply(op, devices, together, faults, server, url);
			await quiesce(devices);
			await apply({ ...op, device: 0 } as Op, [alone], single, faults, server, url);
		}
		let messages = 0;
		for (const [index, id] of together.sessions.entries()) {
			const mine = await devices[0].conversation(id);
			const theirs = await alone.conversation(single.sessions[index]);
			expectEqual(shape({ conversation: theirs, request: await alone.request(single.sessions[index]) }), shape({ conversation: mine, request: await devices[0].request(id) }), `session ${index} synced and on one device`);
			messages += (mine as { rows: unknown[] } | null)?.rows.length ?? 0;
		}
		return { ops: calm.length, sessions: together.sessions.length, messages };
	} finally {
		for (const device of [...devices, alone]) await device.close();
	}
}
