// Which messages of a session are in its context, derived on each device from the compactions it
// holds (each lists the positions it covers) and never synced: a device that has a compaction's
// document knows the whole of it, so no device sees half a compaction.

export interface Positioned {
	position: string;
}

/** A compaction's document: a summary, or a stub standing for pruned tool output. */
export interface Covering extends Positioned {
	covers: readonly string[];
}

/**
 * The messages and compactions in the context, in order: everything no compaction covers
 * (a compaction that folds another folds what that one covered too). A compaction sits just
 * after the last position it covers, where the messages it stands for were; two compactions
 * made at once on two devices are both kept, in the order of those places, then of their own positions.
 */
export function activeMessages<M extends Positioned, S extends Covering>(messages: readonly M[], summaries: readonly S[]): (M | S)[] {
	const byPosition = new Map(summaries.map((summary) => [summary.position, summary]));
	const covered = new Set<string>();
	for (const summary of summaries) for (const position of summary.covers) covered.add(position);

	// Where a compaction sits: after the last place it covers, a folded compaction's place counted for its own.
	const places = new Map<string, string>();
	const placeOf = (summary: S, path: Set<string>): string => {
		const known = places.get(summary.position);
		if (known !== undefined) return known;
		path.add(summary.position);
		let place = summary.covers.length ? '' : summary.position;
		for (const position of summary.covers) {
			const inner = byPosition.get(position);
			const at = inner && !path.has(inner.position) ? placeOf(inner, path) : position;
			if (at > place) place = at;
		}
		path.delete(summary.position);
		places.set(summary.position, place);
		return place;
	};

	const items: { item: M | S; place: string; rank: 0 | 1 }[] = [];
	for (const message of messages) if (!covered.has(message.position)) items.push({ item: message, place: message.position, rank: 0 });
	for (const summary of summaries) if (!covered.has(summary.position)) items.push({ item: summary, place: placeOf(summary, new Set()), rank: 1 });
	items.sort((a, b) => compare(a.place, b.place) || a.rank - b.rank || compare(a.item.position, b.item.position));
	return items.map(({ item }) => item);
}

function compare(a: string, b: string): number {
	return a < b ? -1 : a > b ? 1 : 0;
}
