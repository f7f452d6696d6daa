// A summary's fact check as a compaction records it: the check itself runs in the context
// worker; here its result becomes the marker's figures (with the facts appended, if any) and the
// post_compaction payload's.
import type { MarkerFacts, MessageRow } from '../db/schema';
import { MAX_LISTED_FACTS } from '../db/schema';
import type { LostFact } from '../context/check-facts';
import type { PostCompactionPayload } from '../hooks/hook-payloads';
import { toContextRow } from './compaction-changes';
import type { CompactionDeps } from './compaction-types';

/** How many lost facts post_compaction carries. */
export const MAX_PAYLOAD_FACTS = 50;
/** Automatic compactions append lost facts within this share of the summary's budget. */
export const ADD_FACTS_SHARE = 0.1;

/** Checks `summary` against `replaced`; with `addBudget` tokens, also which lost facts to append. */
export async function checkSummaryFacts(deps: CompactionDeps, replaced: readonly MessageRow[], summary: string, addBudget = 0): Promise<{ facts: MarkerFacts; added: LostFact[] }> {
	const checked = await deps.counter.checkSummary({ rows: replaced.map(toContextRow), summary, model: deps.model, addBudget });
	return { facts: markerFacts(checked.total, checked.kept, checked.lost, checked.added), added: checked.added };
}

/** The marker's record of a check: the added facts marked, and listed with the first others. */
export function markerFacts(total: number, kept: number, lost: readonly LostFact[], added: readonly LostFact[]): MarkerFacts {
	// The worker's answer is a copy: facts are told apart by where they were said and what they say.
	const id = (fact: LostFact) => `${fact.seq}\u0000${fact.text}`;
	const appended = new Set(added.map(id));
	let others = 0;
	const listed = lost.filter((fact) => appended.has(id(fact)) || others++ < MAX_LISTED_FACTS - added.length);
	return {
		total,
		kept,
		lost_count: lost.length,
		lost: listed.map((fact) => ({ class: fact.class, text: fact.text, seq: fact.seq, ...(appended.has(id(fact)) ? { added: true as const } : {}) }))
	};
}

/** How many facts the summary holds now: those it kept, and those added to it. */
export function factsHeld(facts: MarkerFacts): number {
	return facts.kept + facts.lost.filter((fact) => fact.added).length;
}

/** The payload's figures of a check (null and none where there was no check). */
export function factFigures(facts: MarkerFacts | undefined): Pick<PostCompactionPayload, 'facts_total' | 'facts_kept' | 'facts_lost'> {
	if (!facts) return { facts_total: null, facts_kept: null, facts_lost: [] };
	return {
		facts_total: facts.total,
		facts_kept: factsHeld(facts),
		facts_lost: facts.lost.filter((fact) => !fact.added).slice(0, MAX_PAYLOAD_FACTS).map((fact) => fact.text)
	};
}
