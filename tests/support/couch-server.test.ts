// The sync test server speaks the CouchDB API the sync loop relies on: documents by id, the
// changes feed with documents, a conflict for a stale revision, and CORS for the app's origin.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testSessionRow } from '../../src/lib/db/test-session-row';
import { readDocument } from '../../src/lib/sync/read-document';
import { sessionToBody, stampSession } from '../../src/lib/sync/session-document';
import { seededRandom } from '../../src/lib/sync/test-random';
import { startCouchServer } from './couch-server.mjs';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const APP_ORIGIN = 'http://127.0.0.1:4173';

let server: Awaited<ReturnType<typeof startCouchServer>>;

interface Changes {
	results: { doc: Record<string, unknown> }[];
	last_seq: string | number;
}

beforeAll(async () => {
	server = await startCouchServer();
});

afterAll(async () => {
	await server?.close();
});

async function send<T = unknown>(method: string, path: string, body?: unknown): Promise<{ status: number; json: T }> {
	const response = await fetch(server.url + path, {
		method,
		headers: body === undefined ? {} : { 'content-type': 'application/json' },
		body: body === undefined ? undefined : JSON.stringify(body)
	});
	return { status: response.status, json: (await response.json()) as T };
}

describe('the sync test server', () => {
	it('stores a session document, lists it in the changes feed, and refuses a stale revision', async () => {
		expect(await send('PUT', '/userdb-a')).toEqual({ status: 201, json: { ok: true } });
		const doc = stampSession('s-1', testSessionRow('s-1', { title: 'Plans' }), undefined, { at: Date.UTC(2026, 0, 1), random: seededRandom(1) });
		const created = await send<{ rev: string }>('PUT', `/userdb-a/${encodeURIComponent('session:s-1')}`, sessionToBody(doc));
		expect(created.status).toBe(201);
		const firstRev: string = created.json.rev;

		const changes = await send<Changes>('GET', '/userdb-a/_changes?include_docs=true&since=0');
		expect(changes.json.results).toHaveLength(1);
		expect(readDocument(changes.json.results[0].doc, Date.UTC(2026, 0, 1))).toEqual({ kind: 'session', rev: firstRev, doc });

		const renamed = sessionToBody({ ...doc, fields: { ...doc.fields, title: 'Trip' } }, firstRev);
		const updated = await send('POST', '/userdb-a/_bulk_docs', { docs: [renamed] });
		expect(updated.json).toEqual([{ ok: true, id: 'session:s-1', rev: expect.stringMatching(/^2-/) }]);

		// Another device still holds the first revision: its write is refused as a conflict.
		const stale = await send('POST', '/userdb-a/_bulk_docs', { docs: [{ ...renamed, fields: { ...doc.fields, title: 'Stale' } }] });
		expect(stale.status).toBe(201);
		expect(stale.json).toEqual([{ id: 'session:s-1', error: 'conflict', reason: expect.any(String) }]);
		expect((await send('PUT', `/userdb-a/${encodeURIComponent('session:s-1')}`, renamed)).status).toBe(409);

		const since = await send<Changes>('GET', `/userdb-a/_changes?include_docs=true&since=${encodeURIComponent(String(changes.json.last_seq))}`);
		expect(since.json.results.map((change) => (change.doc.fields as { title: string }).title)).toEqual(['Trip']);
	});

	it('lets the app’s origin in, with credentials, on requests and preflights', async () => {
		const simple = await fetch(`${server.url}/`, { headers: { Origin: APP_ORIGIN } });
		expect(simple.headers.get('access-control-allow-origin')).toBe(APP_ORIGIN);
		expect(simple.headers.get('access-control-allow-credentials')).toBe('true');
		const preflight = await fetch(`${server.url}/userdb-a/_bulk_docs`, {
			method: 'OPTIONS',
			headers: { Origin: APP_ORIGIN, 'Access-Control-Request-Method': 'POST', 'Access-Control-Request-Headers': 'content-type' }
		});
		expect(preflight.status).toBeLessThan(300);
		expect(preflight.headers.get('access-control-allow-origin')).toBe(APP_ORIGIN);
		expect(preflight.headers.get('access-control-allow-methods')).toMatch(/POST/);
		expect(preflight.headers.get('access-control-allow-headers')).toMatch(/content-type/);
	});

	it('keeps its databases across a restart when given a directory for them', async () => {
		const dataDir = mkdtempSync(join(tmpdir(), 'palimpsest-couch-test-'));
		try {
			const first = await startCouchServer({ dataDir });
			expect((await fetch(`${first.url}/kept`, { method: 'PUT' })).status).toBe(201);
			expect((await fetch(`${first.url}/kept/a-doc`, { method: 'PUT', body: JSON.stringify({ n: 1 }), headers: { 'content-type': 'application/json' } })).status).toBe(201);
			await first.close();
			const again = await startCouchServer({ port: first.port, dataDir });
			expect(await (await fetch(`${again.url}/kept/a-doc`)).json()).toMatchObject({ n: 1 });
			await again.close();
		} finally {
			rmSync(dataDir, { recursive: true, force: true });
		}
	});

	it('stops by its process id', async () => {
		const other = await startCouchServer();
		expect((await fetch(`${other.url}/`)).status).toBe(200);
		await other.close();
		expect(() => process.kill(other.pid, 0)).toThrow(/ESRCH/);
		await expect(fetch(`${other.url}/`)).rejects.toThrow();
	});
});
