// The profile's search index, stored as one snapshot.

/** The search index of a profile as one snapshot (see search/message-index.ts). */
export interface SearchIndexRow {
	key: string;
	/** MessageIndex.serialize(): the index and, per session, what it was indexed from. */
	data: string;
	at: number;
}
