// Live queries for the state layer: the querier re-runs whenever the tables it read change,
// in this tab or another one.
import Dexie, { liveQuery } from 'dexie';

export function watch<T>(
	querier: () => Promise<T>,
	onValue: (value: T) => void,
	onError: (error: unknown) => void = (error) => console.error(error)
): () => void {
	const subscription = liveQuery(querier).subscribe({ next: onValue, error: onError });
	return () => subscription.unsubscribe();
}

/**
 * Like `watch`, for queries that read a lot (search scans every message): runs `querier` now
 * and again after writes to `tables`, in this tab or another, at most once per `intervalMs`.
 * A plain live query would re-scan on every streaming checkpoint.
 */
export function watchThrottled<T>(
	db: Dexie,
	tables: readonly string[],
	querier: () => Promise<T>,
	onValue: (value: T) => void,
	intervalMs: number,
	onError: (error: unknown) => void = (error) => console.error(error)
): () => void {
	let stopped = false;
	let running = false;
	let dirty = false;
	let timer: ReturnType<typeof setTimeout> | null = null;
	let lastRun = 0;

	const run = async () => {
		running = true;
		dirty = false;
		lastRun = Date.now();
		try {
			const value = await querier();
			if (!stopped) onValue(value);
		} catch (error) {
			if (!stopped) onError(error);
		} finally {
			running = false;
			if (dirty) schedule();
		}
	};
	const schedule = () => {
		dirty = true;
		if (stopped || running || timer) return;
		timer = setTimeout(
			() => {
				timer = null;
				void run();
			},
			Math.max(0, lastRun + intervalMs - Date.now())
		);
	};
	const unlisten = onTablesChanged(db, tables, schedule);
	void run();
	return () => {
		stopped = true;
		if (timer) clearTimeout(timer);
		unlisten();
	};
}

/**
 * Calls `onChange` after every committed write to one of `tables` of this database, in this
 * tab or another: the signal live queries use, without a query.
 */
export function onTablesChanged(db: Dexie, tables: readonly string[], onChange: () => void): () => void {
	const parts = tables.map((table) => `idb://${db.name}/${table}`);
	const listener = (changed: Record<string, unknown>) => {
		const touched = Object.keys(changed).some((key) => parts.some((part) => key === part || key.startsWith(`${part}/`)));
		if (touched) onChange();
	};
	Dexie.on('storagemutated', listener);
	return () => Dexie.on('storagemutated').unsubscribe(listener);
}
