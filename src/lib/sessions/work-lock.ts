// The per-session work lock. A turn, a compaction and a deletion each hold a session's Web
// Lock exclusively while they run, so two of them never touch one session at once, in this
// tab or across tabs; sweeps and repairs skip any session whose lock is held. Each tab also
// holds a shared "open" lock for the session it shows, so "open in some tab" is a lock query.
// Without the Web Locks API (Node tests) work runs unguarded and no lock is ever held.

const WORK_PREFIX = 'palimpsest-work:';
const OPEN_PREFIX = 'palimpsest-open:';

export type WorkKind = 'turn' | 'compaction' | 'deletion' | 'command' | 'maintenance';

interface LocalWork {
	kind: WorkKind;
	controller: AbortController;
	done: Promise<void>;
}

/** Work this tab runs now, by lock name, so a deletion can stop it first. */
const local = new Map<string, LocalWork>();

export function workLockName(profile: string, sessionId: string): string {
	return `${WORK_PREFIX}${profile}:${sessionId}`;
}

function openLockName(profile: string, sessionId: string): string {
	return `${OPEN_PREFIX}${profile}:${sessionId}`;
}

function locks(): LockManager | null {
	return typeof navigator !== 'undefined' && navigator.locks ? navigator.locks : null;
}

export class SessionBusyError extends Error {
	constructor(message: string) {
		super(message);
		this.name = 'SessionBusyError';
	}
}

export interface WorkOptions {
	kind: WorkKind;
	/** Aborted by `stopLocalWork` (a deletion of this session); the work should then end soon. */
	controller?: AbortController;
	/** Why the session is busy, when another holder has the lock. */
	refusal?: () => Error;
	/** Wait for the lock instead of refusing (deletion after it stopped this tab's work). */
	wait?: boolean;
}

/**
 * Runs `work` holding the session's lock. By default it refuses at once when another holder
 * has it: waiting would hold the user's text where nothing shows it, and a closed tab loses it.
 */
export async function withWorkLock<T>(
	profile: string,
	sessionId: string,
	options: WorkOptions,
	work: (signal: AbortSignal) => Promise<T>
): Promise<T> {
	const name = workLockName(profile, sessionId);
	const controller = options.controller ?? new AbortController();
	const refuse = () => options.refusal?.() ?? new SessionBusyError(describeBusy(local.get(name)?.kind));
	const run = async () => {
		let release!: () => void;
		const entry: LocalWork = { kind: options.kind, controller, done: new Promise<void>((r) => (release = r)) };
		local.set(name, entry);
		try {
			return await work(controller.signal);
		} finally {
			if (local.get(name) === entry) local.delete(name);
			release();
		}
	};
	const manager = locks();
	if (!manager) {
		if (local.has(name) && !options.wait) throw refuse();
		if (local.has(name)) await local.get(name)?.done;
		return run();
	}
	if (options.wait) return manager.request(name, { mode: 'exclusive' }, run) as Promise<T>;
	return manager.request(name, { ifAvailable: true }, (lock) => {
		if (!lock) throw refuse();
		return run();
	}) as Promise<T>;
}

function describeBusy(kind: WorkKind | undefined): string {
	if (kind === 'compaction') return 'This session is being compacted. Wait for it to finish, or cancel it.';
	if (kind === 'deletion') return 'This session is being deleted.';
	if (kind === undefined) return 'This session is busy in another tab. Wait for it to finish, or stop it there.';
	return 'Wait for the current answer, or stop it.';
}

/** What this tab is doing with the session right now, if anything. */
export function localWork(profile: string, sessionId: string): WorkKind | null {
	return local.get(workLockName(profile, sessionId))?.kind ?? null;
}

/** Aborts this tab's work on the session, if any, and resolves once it let go of the lock. */
export async function stopLocalWork(profile: string, sessionId: string): Promise<void> {
	const entry = local.get(workLockName(profile, sessionId));
	if (!entry) return;
	entry.controller.abort();
	await entry.done;
}

/** Whether any tab holds the session's work lock right now. */
export async function isWorkLockHeld(profile: string, sessionId: string): Promise<boolean> {
	return (await busySessions(profile)).working.has(sessionId);
}

/**
 * Sessions of `profile` that some tab works on (`working`: a turn, compaction or deletion) or
 * shows (`open`), from one query of the origin's locks, waiting ones included.
 */
export async function busySessions(profile: string): Promise<{ working: Set<string>; open: Set<string> }> {
	const working = new Set<string>();
	const open = new Set<string>();
	const manager = locks();
	if (!manager) {
		for (const name of local.keys()) addId(working, name, `${WORK_PREFIX}${profile}:`);
		return { working, open };
	}
	const { held = [], pending = [] } = await manager.query();
	for (const lock of [...held, ...pending]) {
		addId(working, lock.name ?? '', `${WORK_PREFIX}${profile}:`);
		addId(open, lock.name ?? '', `${OPEN_PREFIX}${profile}:`);
	}
	return { working, open };
}

function addId(into: Set<string>, name: string, prefix: string): void {
	if (name.startsWith(prefix)) into.add(name.slice(prefix.length));
}

/**
 * Runs `work` holding, for each of `ids` that no tab works on or shows right now, both its work
 * lock and its open lock, exclusively; `work` gets those ids. Each is taken only if free (never
 * waited for), so a sweep skips what got busy since it looked, and a tab that starts work on one
 * or opens one meanwhile waits (or is refused) until `work` is done, then finds it gone.
 */
export async function withFreeSessions<T>(profile: string, ids: readonly string[], work: (free: ReadonlySet<string>) => Promise<T>): Promise<T> {
	const manager = locks();
	if (!manager) return work(new Set(ids.filter((id) => !local.has(workLockName(profile, id)))));
	let release!: () => void;
	const released = new Promise<void>((resolve) => (release = resolve));
	const take = (name: string) =>
		new Promise<boolean>((granted) => {
			manager
				.request(name, { ifAvailable: true }, async (lock) => {
					granted(lock !== null);
					if (lock) await released;
				})
				.catch(() => granted(false));
		});
	try {
		const taken = await Promise.all(ids.map(async (id) => (await Promise.all([take(workLockName(profile, id)), take(openLockName(profile, id))])).every(Boolean)));
		return await work(new Set(ids.filter((_, i) => taken[i])));
	} finally {
		release();
	}
}

/**
 * Holds the shared "open" lock of the session this tab shows until the returned release is
 * called (another session opened, the tab closed). Sweeps never remove a session held open.
 */
export function holdOpenLock(profile: string, sessionId: string): () => void {
	const manager = locks();
	if (!manager) return () => {};
	let release!: () => void;
	const released = new Promise<void>((resolve) => (release = resolve));
	void manager.request(openLockName(profile, sessionId), { mode: 'shared' }, () => released).catch(() => {});
	return release;
}
