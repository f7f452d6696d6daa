// A deletion or archive is planned from the stored links, then committed; another tab may change
// those links in between, and the commit then refuses (StalePlanError). Planning again is cheap.
import { StalePlanError, type PlanCheck } from '../db/deletion-verbs';
import type { SessionFamily, SessionLink } from './plan-cascade';

/** Plans made in a row before the user is told to try again: each costs a few index reads. */
const MAX_PLANS = 3;

/** What the commit checks of a plan that takes `taken` out of `family`: no child it did not see. */
export function familyCheck(family: SessionFamily<SessionLink>, taken: readonly string[]): PlanCheck {
	return { planned: new Set([...taken, ...family.detachedBy(taken)]) };
}

/**
 * Runs `attempt` (plan, then commit with `familyCheck`) until its commit finds the sessions as
 * it planned them. A compaction in another tab that rotated a session into a new child between
 * the plan and the commit would otherwise leave that child behind, detached, holding the
 * summary of the conversation being removed; planned again, the lineage goes as a whole.
 */
export async function planAgainIfStale<T>(attempt: () => Promise<T>): Promise<T> {
	for (let plans = 1; ; plans++) {
		try {
			return await attempt();
		} catch (error) {
			if (!(error instanceof StalePlanError) || plans >= MAX_PLANS) throw error;
		}
	}
}
