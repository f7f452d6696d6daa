// Before a deletion writes, this tab's work on those sessions (an answer streaming, a
// compaction) is aborted and has let go, and the deletion holds their work locks while it
// commits, so nothing of this tab writes into a session that is going away.
import { localWork, stopLocalWork, withWorkLock } from './work-lock';

export async function stopThenLock<T>(profile: string, ids: readonly string[], commit: () => Promise<T>): Promise<T> {
	const working = ids.filter((id) => localWork(profile, id) !== null);
	await Promise.all(working.map((id) => stopLocalWork(profile, id)));
	const hold = (i: number): Promise<T> =>
		i === working.length ? commit() : withWorkLock(profile, working[i], { kind: 'deletion', wait: true }, () => hold(i + 1));
	return hold(0);
}
