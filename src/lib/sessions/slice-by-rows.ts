// Cuts a list of sessions into consecutive runs of about a given number of message rows, for
// work done a run at a time (an export reads a batch, an import writes a slice). Pure.

/**
 * Consecutive runs of `items` holding at most `maxRows` rows each (`rowsOf` counts an item's);
 * an item larger than that gets a run of its own. An item is never split.
 */
export function sliceByRows<T>(items: readonly T[], rowsOf: (item: T) => number, maxRows: number): T[][] {
	const runs: T[][] = [];
	let run: T[] = [];
	let rows = 0;
	for (const item of items) {
		const size = rowsOf(item);
		if (run.length && rows + size > maxRows) {
			runs.push(run);
			run = [];
			rows = 0;
		}
		run.push(item);
		rows += size;
	}
	if (run.length) runs.push(run);
	return runs;
}
