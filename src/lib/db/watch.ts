// Live queries for the state layer: the querier re-runs whenever the tables it read change,
// in this tab or another one.
import { liveQuery } from 'dexie';

export function watch<T>(
	querier: () => Promise<T>,
	onValue: (value: T) => void,
	onError: (error: unknown) => void = (error) => console.error(error)
): () => void {
	const subscription = liveQuery(querier).subscribe({ next: onValue, error: onError });
	return () => subscription.unsubscribe();
}
