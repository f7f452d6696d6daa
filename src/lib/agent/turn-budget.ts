// How many summaries one turn may write on its own. A model that refuses every request as too
// long, or tool results that fill the window round after round, must not make a turn compact
// again and again: past the budget the turn stops and says why. Pruning old tool output is not
// counted (it only stubs what it has not stubbed before, so it cannot loop). Pure.
import type { CompactionOutcome, CompactionRequest } from './compaction-types';

/** Automatic summaries one turn may write (the user's own Compact now is never counted). */
export const SUMMARIES_PER_TURN = 2;

export class TurnBudget {
	#used = 0;

	constructor(readonly limit = SUMMARIES_PER_TURN) {}

	/** Whether a compaction of this kind may still run in this turn. */
	allows(request: Pick<CompactionRequest, 'kind'>): boolean {
		return !writesSummary(request) || this.#used < this.limit;
	}

	/** Counts what a compaction did; returns it. */
	note(outcome: CompactionOutcome): CompactionOutcome {
		if (outcome.status === 'compacted' && outcome.payload.kind !== 'prune_tool_results' && outcome.payload.kind !== 'provider_native') this.#used++;
		return outcome;
	}

	/** The no-op a refused compaction returns, in words for the turn's error. */
	refusal(): CompactionOutcome {
		return { status: 'noop', why: 'turn_limit', message: `it was summarised ${this.limit === 2 ? 'twice' : `${this.limit} times`} in this turn already, so it is not compacted again` };
	}
}

function writesSummary(request: Pick<CompactionRequest, 'kind'>): boolean {
	return request.kind !== 'prune_tool_results';
}
