// A session's request estimate: what the next request would really cost. Counts only rows
// without a cached count (in the worker), stores new counts on their rows and the total on
// the session in one short write, and follows the provider's own count once it reported one.
import { contextRows } from '../db/context-rows';
import type { PalimpsestDb } from '../db/database';
import { listActiveMessages } from '../db/compaction-verbs';
import type { MessageRow } from '../db/schema';
import type { ContextWorker } from './context-client';
import { costText } from './context-rows';
import { encodingForModel, type EstimateMessage, type RequestEstimate } from './count-tokens';

/** Counts stored per IndexedDB call. */
const SLICE = 100;

export interface RequestExtras {
	systemPrompt: string;
	toolSchemas?: readonly unknown[];
	/** Plugin context for this request, when it is known. */
	injected?: readonly string[];
	reservedOutput?: number;
}

/** Only text without a usable cached count crosses to the worker, not the whole transcript. */
export function estimateMessages(rows: readonly MessageRow[], model: string): EstimateMessage[] {
	const wanted = encodingForModel(model);
	return rows.map((row) =>
		row.tokens !== undefined && row.encoding === wanted ? { content: '', tokens: row.tokens, encoding: row.encoding } : { content: costText(row) }
	);
}

/** The estimate scaled by what the provider reported for an earlier request (its tokenizer may differ). */
export function anchoredTotal(estimate: Pick<RequestEstimate, 'total' | 'reservedOutput'>, ratio: number | undefined): number {
	const counted = estimate.total - estimate.reservedOutput;
	return Math.round(counted * (ratio ?? 1)) + estimate.reservedOutput;
}

export interface SessionEstimate {
	/** What the meter shows and the thresholds compare: anchored on the provider's count. */
	total: number;
	/** This app's own count of the request, reserved output excluded (what usage is compared with). */
	counted: number;
}

export async function estimateSession(
	db: PalimpsestDb,
	worker: Pick<ContextWorker, 'estimate'>,
	sessionId: string,
	model: string,
	extras: RequestExtras
): Promise<SessionEstimate | null> {
	const rows = contextRows(await listActiveMessages(db, sessionId));
	const estimate = await worker.estimate({ messages: estimateMessages(rows, model), ...extras }, model);
	return db.transaction('rw', db.sessions, db.messages, async () => {
		const session = await db.sessions.get(sessionId);
		if (!session) return null;
		const total = anchoredTotal(estimate, session.token_ratio);
		const result = { total, counted: estimate.total - estimate.reservedOutput };
		// Nothing new: no write, so live queries (the sidebar, other tabs) do not wake up.
		if (!estimate.recounted.length && session.token_estimate === total) return result;
		// The first estimate of an uncounted session stores hundreds of counts: a write per row
		// costs a round trip each, one write of them all a long main-thread task; slices do neither.
		const changes = estimate.recounted.map((index) => ({
			key: [rows[index].session_id, rows[index].seq] as [string, number],
			changes: { tokens: estimate.messageCounts[index], encoding: estimate.encoding }
		}));
		for (let start = 0; start < changes.length; start += SLICE) await db.messages.bulkUpdate(changes.slice(start, start + SLICE));
		await db.sessions.update(sessionId, { token_estimate: total });
		return result;
	});
}
