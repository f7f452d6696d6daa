// The model-based test of sync (see tests/support/sync-fuzz.ts): a short pass with fixed seeds
// here, without and with a sync passphrase; `npm run fuzz:sync` runs it at length. Every case it
// ever failed on stays here as a seed.
import 'fake-indexeddb/auto';
import fc from 'fast-check';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startCouchServer } from '../../../tests/support/couch-server.mjs';
import { effective, opArbitrary, runConcurrent, runSequential, type FuzzServer } from '../../../tests/support/sync-fuzz';

const RUNS = Number(process.env.SYNC_FUZZ_RUNS ?? 4);
const OPS = Number(process.env.SYNC_FUZZ_OPS ?? 30);
const SEED = Number(process.env.SYNC_FUZZ_SEED ?? 20260101);
const HOUR = 60 * 60 * 1000;

let server: Awaited<ReturnType<typeof startCouchServer>>;
let dataDir = '';

const fuzzServer: FuzzServer = {
	async newDatabase() {
		const url = `${server.url}/fuzz-${crypto.randomUUID()}`;
		expect((await fetch(url, { method: 'PUT' })).status).toBe(201);
		return url;
	},
	async recreate(url) {
		await fetch(url, { method: 'DELETE' });
		await fetch(url, { method: 'PUT' });
	},
	async restart() {
		const port = server.port;
		await server.close();
		server = await startCouchServer({ port, dataDir });
	}
};

beforeAll(async () => {
	dataDir = mkdtempSync(join(tmpdir(), 'palimpsest-fuzz-'));
	server = await startCouchServer({ dataDir });
});

afterAll(async () => {
	await server?.close();
	rmSync(dataDir, { recursive: true, force: true });
});

const equal = (actual: unknown, expected: unknown, what: string) => {
	if (process.env.SYNC_FUZZ_DEBUG && JSON.stringify(actual) !== JSON.stringify(expected)) writeFileSync('/tmp/sync-fuzz-difference.json', JSON.stringify({ what, actual, expected }, null, 1));
	expect(actual, what).toEqual(expected);
};
const skews = fc.tuple(fc.integer({ min: -6 * HOUR, max: 6 * HOUR }), fc.integer({ min: -6 * HOUR, max: 6 * HOUR }), fc.integer({ min: -6 * HOUR, max: 6 * HOUR }));

describe('three devices syncing through one server, with faults', () => {
	it('end with the same conversations and requests, lose nothing, and hold their rows as derived', { timeout: 600_000 }, async () => {
		const counts = { runs: 0, ops: 0, sessions: 0, messages: 0 };
		await fc.assert(
			fc.asyncProperty(fc.array(opArbitrary, { minLength: OPS, maxLength: OPS }), skews, async (ops, skew) => {
				const result = await runConcurrent(ops, fuzzServer, skew, equal);
				counts.runs += 1;
				counts.ops += result.ops;
				counts.sessions += result.sessions;
				counts.messages += result.messages;
			}),
			{ seed: SEED, numRuns: RUNS, endOnFailure: true }
		);
		if (process.env.SYNC_FUZZ_REPORT) {
			console.log(`sync fuzz: ${counts.runs} runs, ${counts.ops} operations, ${counts.sessions} sessions and ${counts.messages} messages compared on three devices`);
			console.log(`operations that did something: ${[...effective].sort().map(([kind, n]) => `${kind} ${n}`).join(', ')}`);
		}
	});

	it('synced after each operation, end as the same operations on one device do', { timeout: 600_000 }, async () => {
		await fc.assert(
			fc.asyncProperty(fc.array(opArbitrary, { minLength: OPS, maxLength: OPS }), skews, async (ops, skew) => runSequential(ops, fuzzServer, skew, equal)),
			{ seed: SEED + 1, numRuns: Math.max(1, Math.ceil(RUNS / 2)), endOnFailure: true }
		);
	});
});

describe('three devices syncing through one server with a sync passphrase, with faults', () => {
	it('end with the same conversations and requests, lose nothing, and hold their rows as derived', { timeout: 600_000 }, async () => {
		await fc.assert(
			fc.asyncProperty(fc.array(opArbitrary, { minLength: OPS, maxLength: OPS }), skews, async (ops, skew) => void (await runConcurrent(ops, fuzzServer, skew, equal, { passphrase: 'fuzz passphrase' }))),
			{ seed: SEED + 2, numRuns: Math.max(1, Math.ceil(RUNS / 2)), endOnFailure: true }
		);
	});

	it('synced after each operation, end as the same operations on one device do', { timeout: 600_000 }, async () => {
		await fc.assert(
			fc.asyncProperty(fc.array(opArbitrary, { minLength: OPS, maxLength: OPS }), skews, async (ops, skew) => runSequential(ops, fuzzServer, skew, equal, { passphrase: 'fuzz passphrase' })),
			{ seed: SEED + 3, numRuns: 1, endOnFailure: true }
		);
	});
});
