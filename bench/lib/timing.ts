// Timing helpers shared by the benchmarks in Node and in Chromium.

export function median(values: readonly number[]): number {
	const sorted = [...values].sort((a, b) => a - b);
	return sorted[Math.floor(sorted.length / 2)];
}

/** Runs `work` once and says how long it took (ms), with its value. */
export async function timed<T>(work: () => T | Promise<T>): Promise<{ ms: number; value: T }> {
	const started = performance.now();
	const value = await work();
	return { ms: performance.now() - started, value };
}

/** The median time of `runs` runs of `work` (ms), and the value of the last run. */
export async function medianOf<T>(runs: number, work: () => T | Promise<T>): Promise<{ ms: number; value: T; all: number[] }> {
	const all: number[] = [];
	let value!: T;
	for (let run = 0; run < runs; run++) {
		const result = await timed(work);
		all.push(result.ms);
		value = result.value;
	}
	return { ms: median(all), value, all };
}
