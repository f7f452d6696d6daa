// How the benchmarks print their figures.
import { readFileSync } from 'node:fs';
import { availableParallelism, loadavg } from 'node:os';

export const int = (value) => Math.round(value).toLocaleString('en');

/** Milliseconds with sensible precision: 0.042 ms, 3.1 ms, 412 ms, 2.35 s. */
export function ms(value) {
	if (!Number.isFinite(value)) return 'n/a';
	if (value >= 1000) return `${(value / 1000).toFixed(2)} s`;
	if (value >= 100) return `${value.toFixed(0)} ms`;
	if (value >= 1) return `${value.toFixed(1)} ms`;
	return `${value.toFixed(3)} ms`;
}

export function formatThroughput(label, result) {
	return [
		`  ${label}: worker ${int(result.workerTokensPerSecond)} tokens/s, raw countTokens ${int(result.rawTokensPerSecond)} tokens/s, ratio ${result.ratio.toFixed(2)}× (goal ≥ 0.8×)`,
		`    a round: ${int(result.tokens)} tokens in ${(result.chars / 2 ** 20).toFixed(2)} MB of text, ${ms(result.workerMs)} through the worker, ${ms(result.rawMs)} raw; first call (starts the worker, loads the table) ${ms(result.firstCallMs)}; totals ${result.agree ? 'agree' : 'DIFFER'}`,
		`    raw tokens/s by kind of text: ${Object.entries(result.rawByKind).map(([kind, perSecond]) => `${kind} ${int(perSecond)}`).join(', ')}`
	].join('\n');
}

export function formatCost(label, cost) {
	const appends = cost.appends.map((append) => `${append.kind} ${ms(append.ms)} (${int(append.ratio)}× cheaper)`).join(', ');
	return `${label}: full recount ${ms(cost.recountMs)}; after appending ${appends}${cost.agree ? '' : ' (totals DIFFER)'}`;
}

/** The machine the figures come from: other work on it slows every figure. */
export function machine() {
	return `Machine: ${availableParallelism()} cores, load average ${loadavg().map((load) => load.toFixed(1)).join(' / ')} (1 / 5 / 15 min) when the run started`;
}

/** The machine's CPU time so far, busy and in all, in clock ticks over every core (Linux's /proc/stat; null elsewhere). */
export function cpuTicks() {
	try {
		const fields = readFileSync('/proc/stat', 'utf8').split('\n')[0].trim().split(/\s+/).slice(1).map(Number);
		// user nice system idle iowait irq softirq steal: idle and iowait are the cores doing nothing.
		const total = fields.slice(0, 8).reduce((sum, value) => sum + value, 0);
		return { busy: total - fields[3] - fields[4], total };
	} catch {
		return null;
	}
}

/** The share of the machine's cores that were busy between two cpuTicks() readings (null when unknown). */
export function busyShare(before, after) {
	if (!before || !after || after.total === before.total) return null;
	return (after.busy - before.busy) / (after.total - before.total);
}
