// The model-based test of sync (see tests/support/sync-fuzz.ts): a short pass with fixed seeds
// here, without and with a sync passphrase; `npm run fuzz:sync` runs it at length
// (tests/support/fuzz-sync.mjs). Every case it ever failed on stays here as a seed.
import 'fake-indexeddb/auto';
import fc from 'fast-check';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startCouchServer } from '../../../tests/support/couch-server.mjs';
import { runConcurrent, runSequential } from '../../../tests/support/sync-fuzz';
import { effective, opArbitrary, tally, type FuzzServer } from '../../../tests/support/sync-fuzz-model';
import { FIXED_CASES } from '../../../tests/support/sync-fuzz-cases';

const RUNS = Number(process.env.SYNC_FUZZ_RUNS ?? 4);
const OPS = Number(process.env.SYNC_FUZZ_OPS ?? 30);
const SEED = Number(process.env.SYNC_FUZZ_SEED ?? 20260101);
/** The long run's time for each property (ms), after which it starts no new run; 0: none. */
const BUDGET_MS = Number(process.env.SYNC_FUZZ_MINUTES_EACH ?? 0) * 60_000;
const TIMEOUT = process.env.SYNC_FUZZ_LONG ? 24 * 60 * 60_000 : 600_000;
const HOUR = 60 * 60 * 1000;

let server: Awaited<ReturnType<typeof startCouchServer>>;
let dataDir = '';

/** Starts the server again on its port (on a busy machine another process may take the port meanwhile: then on a new one). */
async function startAgain(): Promise<void> {
	const port = server.port;
	await server.close().catch(() => {});
	// Its storage's locks may outlive the old process by a moment: the next start waits a little longer each time.
	for (let attempt = 1; attempt <= 5; attempt++) {
		try {
			server = await startCouchServer(attempt < 5 ? { port, dataDir } : { dataDir });
			return;
		} catch (error) {
			if (attempt === 5) throw error;
			await new Promise((resolve) => setTimeout(resolve, 250 * attempt));
		}
	}
}

const fuzzServer: FuzzServer = {
	async newDatabase() {
		const url = `${server.url}/fuzz-${crypto.randomUUID()}`;
		// A server that stopped answering (killed by a busy machine) is started again for the next run.
		const created = await fetch(url, { method: 'PUT' }).catch(async () => {
			await startAgain();
			return fetch(url.replace(/^http:\/\/[^/]+/, server.url), { method: 'PUT' });
		});
		expect(created.status).toBe(201);
		return url.replace(/^http:\/\/[^/]+/, server.url);
	},
	route(url) {
		return url.replace(/^http:\/\/127\.0\.0\.1:\d+/, server.url);
	},
	async recreate(url) {
		await fetch(this.route(url), { method: 'DELETE' });
		// The server may still be removing the old one: created again once it has.
		for (let attempt = 1; (await fetch(this.route(url), { method: 'PUT' })).status !== 201; attempt++) {
			if (attempt === 20) throw new Error(`The server would not create ${url} again.`);
			await new Promise((resolve) => setTimeout(resolve, 50 * attempt));
		}
	},
	restart: startAgain
};

beforeAll(async () => {
	dataDir = mkdtempSync(join(tmpdir(), 'palimpsest-fuzz-'));
	server = await startCouchServer({ dataDir });
});

afterAll(async () => {
	await server?.close();
	rmSync(dataDir, { recursive: true, force: true });
	// The long run's runner prints these.
	if (process.env.SYNC_FUZZ_TALLY) writeFileSync(process.env.SYNC_FUZZ_TALLY, JSON.stringify({ ...tally, effective: Object.fromEntries(effective) }));
});

const equal = (actual: unknown, expected: unknown, what: string) => {
	if (process.env.SYNC_FUZZ_DEBUG && JSON.stringify(actual) !== JSON.stringify(expected)) writeFileSync('/tmp/sync-fuzz-difference.json', JSON.stringify({ what, actual, expected }, null, 1));
	expect(actual, what).toEqual(expected);
};
const skews = fc.tuple(fc.integer({ min: -6 * HOUR, max: 6 * HOUR }), fc.integer({ min: -6 * HOUR, max: 6 * HOUR }), fc.integer({ min: -6 * HOUR, max: 6 * HOUR }));
const ops = fc.array(opArbitrary, { minLength: OPS, maxLength: OPS });
const settings = (seed: number, numRuns: number) => ({ seed, numRuns, endOnFailure: true, ...(BUDGET_MS ? { interruptAfterTimeLimit: BUDGET_MS } : {}) });
const counted = async (run: () => Promise<{ ops: number; sessions: number; messages: number }>) => {
	const result = await run();
	tally.runs += 1;
	tally.ops += result.ops;
	tally.sessions += result.sessions;
	tally.messages += result.messages;
};

describe('three devices syncing through one server, with faults', () => {
	it('end with the same conversations and requests, lose nothing, and hold their rows as derived', { timeout: TIMEOUT }, async () => {
		await fc.assert(
			fc.asyncProperty(ops, skews, (ops, skew) => counted(() => runConcurrent(ops, fuzzServer, skew, equal))),
			settings(SEED, RUNS)
		);
	});

	it('synced after each operation, end as the same operations on one device do', { timeout: TIMEOUT }, async () => {
		await fc.assert(
			fc.asyncProperty(ops, skews, (ops, skew) => counted(() => runSequential(ops, fuzzServer, skew, equal))),
			settings(SEED + 1, Math.max(1, Math.ceil(RUNS / 2)))
		);
	});
});

describe('three devices syncing through one server with a sync passphrase, with faults', () => {
	it('end with the same conversations and requests, lose nothing, and hold their rows as derived', { timeout: TIMEOUT }, async () => {
		await fc.assert(
			fc.asyncProperty(ops, skews, (ops, skew) => counted(() => runConcurrent(ops, fuzzServer, skew, equal, { passphrase: 'fuzz passphrase' }))),
			settings(SEED + 2, Math.max(1, Math.ceil(RUNS / 2)))
		);
	});

	it('synced after each operation, end as the same operations on one device do', { timeout: TIMEOUT }, async () => {
		await fc.assert(
			fc.asyncProperty(ops, skews, (ops, skew) => counted(() => runSequential(ops, fuzzServer, skew, equal, { passphrase: 'fuzz passphrase' }))),
			settings(SEED + 3, Math.max(1, Math.ceil(RUNS / 4)))
		);
	});
});

describe('the cases it once failed on', () => {
	for (const fixed of FIXED_CASES) {
		const options = fixed.passphrase ? { passphrase: fixed.passphrase } : {};
		it(fixed.name, { timeout: TIMEOUT }, () => counted(() => (fixed.mode === 'sequential' ? runSequential : runConcurrent)(fixed.ops, fuzzServer, fixed.skews, equal, options)));
	}
});
