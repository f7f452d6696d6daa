// `npm run fuzz:sync`: the model-based test of sync (src/lib/sync/sync-fuzz.test.ts) at length,
// with a seed printed to repeat it, and what it did counted at the end. Set by environment:
//   SYNC_FUZZ_RUNS (runs of the first property; the others run half or a quarter as many),
//   SYNC_FUZZ_OPS (operations in each run), SYNC_FUZZ_SEED (else a new one),
//   SYNC_FUZZ_MINUTES (no new run after this long, shared between the properties),
//   SYNC_FUZZ_PASSPHRASE = both | with | without (runs with a sync passphrase, without, or both).
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startVitest } from 'vitest/node';

const env = process.env;
env.SYNC_FUZZ_LONG = '1';
env.SYNC_FUZZ_SEED ??= String(Math.floor(Math.random() * 2 ** 31));
env.SYNC_FUZZ_RUNS ??= '100';
env.SYNC_FUZZ_OPS ??= '80';
const mode = env.SYNC_FUZZ_PASSPHRASE ?? 'both';
if (!['both', 'with', 'without'].includes(mode)) throw new Error('SYNC_FUZZ_PASSPHRASE is both, with or without.');
const properties = mode === 'both' ? 4 : 2;
if (env.SYNC_FUZZ_MINUTES) env.SYNC_FUZZ_MINUTES_EACH = String(Number(env.SYNC_FUZZ_MINUTES) / properties);
const dir = mkdtempSync(join(tmpdir(), 'palimpsest-fuzz-tally-'));
env.SYNC_FUZZ_TALLY = join(dir, 'tally.json');

const filter = { both: undefined, with: 'with a sync passphrase', without: '^three devices syncing through one server, with faults' }[mode];
console.log(`sync fuzz: seed ${env.SYNC_FUZZ_SEED}, up to ${env.SYNC_FUZZ_RUNS} runs of ${env.SYNC_FUZZ_OPS} operations, ${mode === 'both' ? 'without and with' : mode} a sync passphrase${env.SYNC_FUZZ_MINUTES ? `, for at most ${env.SYNC_FUZZ_MINUTES} min` : ''} (SYNC_FUZZ_SEED=${env.SYNC_FUZZ_SEED} repeats it)`);
const started = performance.now();
const vitest = await startVitest('test', ['src/lib/sync/sync-fuzz.test.ts'], { watch: false, ...(filter ? { testNamePattern: filter } : {}) });
await vitest?.close();
const minutes = ((performance.now() - started) / 60_000).toFixed(1);
try {
	const t = JSON.parse(readFileSync(env.SYNC_FUZZ_TALLY, 'utf8'));
	const faults = Object.entries(t.faults).map(([kind, n]) => `${n} ${kind}`).join(', ');
	console.log(`operations that did something: ${Object.entries(t.effective).sort(([a], [b]) => a.localeCompare(b)).map(([kind, n]) => `${kind} ${n}`).join(', ')}`);
	console.log(`faults that struck: ${faults}`);
	console.log(`sync fuzz: seed ${env.SYNC_FUZZ_SEED}, ${t.runs} runs, ${t.ops} operations, ${t.syncs} syncs, ${Object.values(t.faults).reduce((a, b) => a + b, 0)} faults, ${t.sessions} sessions and ${t.messages} messages compared, in ${minutes} min: ${process.exitCode ? 'FAILED' : 'all agreed'}`);
} catch {
	console.log(`sync fuzz: seed ${env.SYNC_FUZZ_SEED}: no tally (the test did not finish), after ${minutes} min`);
	process.exitCode ||= 1;
} finally {
	rmSync(dir, { recursive: true, force: true });
}
