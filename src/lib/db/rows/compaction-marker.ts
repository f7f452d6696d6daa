// What one compaction did, as the row that marks it in the transcript keeps it, with the fact
// check of its summary.
import type { CompactionKind, CompactionReason } from '../../hooks/hook-payloads';
import type { FactClass } from '../../context/extract-facts';

/**
 * What one compaction did, kept on the row that marks its place in the transcript (the summary,
 * or a notice where tool outputs were pruned). `id` is the `compacted_by` of the rows it removed.
 */
export interface CompactionMarker {
	id: string;
	kind: CompactionKind;
	reason: CompactionReason;
	before_tokens: number;
	after_tokens: number | null;
	messages_removed: number | null;
	/**
	 * How many of the user's messages the context holds only through this compaction's summary
	 * (those of an earlier summary it replaced included). Absent on compactions from before it was kept.
	 */
	user_messages_folded?: number;
	/** Set in a rotated session: the parent whose rows this summary replaces. */
	old_session_id?: string;
	at: number;
	/**
	 * Set when the user undid it: its rows are back in the context and its summary is kept
	 * where it was as a note (kind 'notice'), no longer sent (see db/undo-compaction-verbs.ts).
	 */
	undone_at?: number;
	/** Set when the user edited the summary: the edited row carries the marker now, the original stays (inactive). */
	edited_at?: number;
	/** The fact check of its summary; absent where no summary can be read (pruning, an opaque one) and on compactions from before it. */
	facts?: MarkerFacts;
}

/** How many lost facts a marker lists; the count covers them all. */
export const MAX_LISTED_FACTS = 100;

/**
 * A summary's fact check: of the facts in the rows it replaced (paths, URLs, identifiers,
 * numbers, e-mail addresses, names, the user's instructions), how many it held as written, and
 * those it did not, each with the row it came from.
 */
export interface MarkerFacts {
	total: number;
	/** Held by the summary as its writer wrote it. */
	kept: number;
	/** Every fact it did not hold. */
	lost_count: number;
	/** The first MAX_LISTED_FACTS of them, message by message; `added` once appended to the summary. */
	lost: LostFactEntry[];
	/** Set when the user added them with "Add lost facts to summary" (an edit of the summary). */
	added_at?: number;
}

export interface LostFactEntry {
	class: FactClass;
	text: string;
	/** The compacted row it was said in. */
	seq: number;
	added?: true;
}
