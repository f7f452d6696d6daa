// For tests that sync profile databases through a real pouchdb-server: the server started once
// for the file, a new empty database on it per test, and the profile databases a test opened
// deleted after it.
import { afterAll, afterEach, beforeAll, expect } from 'vitest';
import { startCouchServer } from '../../../tests/support/couch-server.mjs';
import type { PalimpsestDb } from '../db/database';

export function useCouchDatabases(prefix: string) {
	let server: Awaited<ReturnType<typeof startCouchServer>>;
	const opened: PalimpsestDb[] = [];
	beforeAll(async () => {
		server = await startCouchServer();
	});
	afterAll(async () => {
		await server?.close();
	});
	afterEach(async () => {
		for (const db of opened.splice(0)) await db.delete();
	});
	return {
		/** Deleted after the test. */
		opened,
		/** A new, empty database on the server; its URL. */
		async newDatabase(): Promise<string> {
			const url = `${server.url}/userdb-${prefix}-${crypto.randomUUID()}`;
			expect((await fetch(url, { method: 'PUT' })).status).toBe(201);
			return url;
		}
	};
}
