// Quick mode for every benchmark (BENCH_QUICK=1, or --quick): the same code paths with small
// sizes and one round, finishing in seconds, so `npm test` runs each one and a benchmark that
// breaks fails the tests. Its figures are marked as quick: they are not comparable with a full run.

export const QUICK = process.env.BENCH_QUICK === '1' || process.argv.includes('--quick');

/** `full` in a real run, `quick` in quick mode. */
export function size(full, quick) {
	return QUICK ? quick : full;
}

/** The last line of every benchmark: its headline figure and its goal, so runs can be compared. */
export function headline(text) {
	console.log(`${QUICK ? 'Headline (quick run: small sizes, not comparable)' : 'Headline'}: ${text}`);
}
