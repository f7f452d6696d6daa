// Sweeps, pruning and repair run in one tab at a time: a Web Lock per profile, taken only when
// free (another tab already doing it is as good). Without Web Locks (Node tests) they just run.
const PREFIX = 'palimpsest-maintenance:';

/** Runs `work` holding the profile's maintenance lock; null when another tab holds it. */
export async function withMaintenanceLock<T>(profile: string, work: () => Promise<T>): Promise<{ value: T } | null> {
	const manager = typeof navigator !== 'undefined' ? navigator.locks : undefined;
	if (!manager) return { value: await work() };
	return manager.request(`${PREFIX}${profile}`, { ifAvailable: true }, async (lock) => (lock ? { value: await work() } : null));
}
