// The server's floor for a first sync: the very documents the app sent, posted again with
// `_bulk_docs` straight to a new database on the same server (in requests of the size the app
// sends), and read back from its `_changes` feed (in pages of the size the app reads, with the
// same query). Nothing of the app runs: this is what the server and the browser's fetch take.
import { DEFAULT_BATCH_BYTES } from '../../src/lib/sync/push-pending';

export interface ServerFloor {
	documents: number;
	/** ms: every document posted with `_bulk_docs`. */
	postMs: number;
	/** ms: every document read from `_changes` with its body. */
	readMs: number;
}

const PAGE = 200;

/** The documents of `url` (not its design documents) posted to a new database beside it, then read back. */
export async function measureServerFloor(url: string): Promise<ServerFloor> {
	const listed = (await (await fetch(`${url}/_all_docs?include_docs=true`)).json()) as { rows: { id: string; doc: Record<string, unknown> }[] };
	const docs = listed.rows.filter((row) => !row.id.startsWith('_design/')).map(({ doc }) => {
		const { _rev: _, _attachments: _attachments, ...body } = doc;
		return body;
	});
	const floor = `${url}-floor`;
	if ((await fetch(floor, { method: 'PUT' })).status !== 201) throw new Error('The server did not create the floor database.');
	try {
		// Batches as the app makes them: up to DEFAULT_BATCH_BYTES of JSON each.
		const bodies = docs.map((doc) => JSON.stringify(doc));
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
		let started = performance.now();
		for (const batch of batches) {
			const answer = await fetch(`${floor}/_bulk_docs`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: `{"docs":[${batch.join(',')}]}` });
			if (!answer.ok) throw new Error(`_bulk_docs answered ${answer.status}.`);
			await answer.json();
		}
		const postMs = performance.now() - started;
		started = performance.now();
		let since = '0';
		let read = 0;
		for (;;) {
			const page = (await (await fetch(`${floor}/_changes?since=${encodeURIComponent(since)}&limit=${PAGE}&include_docs=true&conflicts=true`)).json()) as { results: unknown[]; last_seq: string | number };
			read += page.results.length;
			since = String(page.last_seq);
			if (page.results.length < PAGE) break;
		}
		const readMs = performance.now() - started;
		if (read < docs.length) throw new Error(`_changes gave ${read} of ${docs.length} documents.`);
		return { documents: docs.length, postMs, readMs };
	} finally {
		await fetch(floor, { method: 'DELETE' });
	}
}
