// The server's floor for a first sync: the very documents the app sent, posted again with
// `_bulk_docs` straight to a new database on the same server (in requests of the size the app
// sends), and read back from its `_changes` feed (in pages of the size the app reads, with the
// same query). Nothing of the app runs: this is what the server and the browser's fetch take.
// Then both again, each while this device does its own floor of that side (device-floor.ts) at
// the same time: the server, the browser and IndexedDB share the machine's cores, as in a sync.
import { DEFAULT_BATCH_BYTES } from '../../src/lib/sync/push-pending';

export interface ServerFloor {
	documents: number;
	/** ms: every document posted with `_bulk_docs`. */
	postMs: number;
	/** ms: every document read from `_changes` with its body. */
	readMs: number;
	/** ms: the same post, and the same read, each while this device did its own floor of that side. */
	together?: { sendMs: number; receiveMs: number };
}

/** Work to do alongside the post and the read (this device's floor of each side). */
export interface Alongside {
	send(): Promise<unknown>;
	receive(): Promise<unknown>;
}

const PAGE = 200;

/** `bodies` in requests of up to DEFAULT_BATCH_BYTES of JSON each, as the app makes them. */
function batchesOf(bodies: readonly string[]): string[][] {
	const batches: string[][] = [[]];
	let bytes = 0;
	for (const body of bodies) {
		if (bytes + body.length > DEFAULT_BATCH_BYTES && batches.at(-1)!.length) {
			batches.push([]);
			bytes = 0;
		}
		batches.at(-1)!.push(body);
		bytes += body.length + 1;
	}
	return batches;
}

async function post(database: string, batches: readonly string[][]): Promise<void> {
	for (const batch of batches) {
		const answer = await fetch(`${database}/_bulk_docs`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: `{"docs":[${batch.join(',')}]}` });
		if (!answer.ok) throw new Error(`_bulk_docs answered ${answer.status}.`);
		await answer.json();
	}
}

/** How many changes `_changes` gave, read whole in pages. */
async function read(database: string): Promise<number> {
	let since = '0';
	let count = 0;
	for (;;) {
		const page = (await (await fetch(`${database}/_changes?since=${encodeURIComponent(since)}&limit=${PAGE}&include_docs=true&conflicts=true`)).json()) as { results: unknown[]; last_seq: string | number };
		count += page.results.length;
		since = String(page.last_seq);
		if (page.results.length < PAGE) return count;
	}
}

/** ms that `work` takes. */
async function timed(work: () => Promise<unknown>): Promise<number> {
	const started = performance.now();
	await work();
	return performance.now() - started;
}

/** A new database beside `url`, for `use`, deleted after. */
async function withFloorDatabase<T>(url: string, use: (database: string) => Promise<T>): Promise<T> {
	const database = `${url}-floor-${crypto.randomUUID()}`;
	if ((await fetch(database, { method: 'PUT' })).status !== 201) throw new Error('The server did not create the floor database.');
	try {
		return await use(database);
	} finally {
		await fetch(database, { method: 'DELETE' });
	}
}

/** The documents of `url` (not its design documents) posted to a new database beside it, then read back; with `alongside`, again with it. */
export async function measureServerFloor(url: string, alongside?: Alongside): Promise<ServerFloor> {
	const listed = (await (await fetch(`${url}/_all_docs?include_docs=true`)).json()) as { rows: { id: string; doc: Record<string, unknown> }[] };
	const docs = listed.rows.filter((row) => !row.id.startsWith('_design/')).map(({ doc }) => {
		const { _rev: _, _attachments: _attachments, ...body } = doc;
		return body;
	});
	const batches = batchesOf(docs.map((doc) => JSON.stringify(doc)));
	const alone = await withFloorDatabase(url, async (database) => {
		const postMs = await timed(() => post(database, batches));
		let count = 0;
		const readMs = await timed(async () => (count = await read(database)));
		if (count < docs.length) throw new Error(`_changes gave ${count} of ${docs.length} documents.`);
		return { postMs, readMs };
	});
	const together = alongside
		? await withFloorDatabase(url, async (database) => ({
				sendMs: await timed(() => Promise.all([post(database, batches), alongside.send()])),
				receiveMs: await timed(() => Promise.all([read(database), alongside.receive()]))
			}))
		: undefined;
	return { documents: docs.length, ...alone, ...(together ? { together } : {}) };
}
