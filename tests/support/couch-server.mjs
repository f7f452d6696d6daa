// A CouchDB-compatible sync server for the tests: pouchdb-server (a devDependency) in memory on a
// free loopback port, started in a directory of its own (it writes its config and log there) and
// stopped by its process id. It lets any origin in, credentials included, as the browser tests need.
// Given a data directory, it keeps its databases there instead, so it can be stopped and started
// again with them (a server restart).
import { mkdtempSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { startProcess } from './start-process.mjs';
import { freePort } from './tool-server.mjs';

const require = createRequire(import.meta.url);

/**
 * Starts the server (on `port`, or a free one); resolves once it listens, with its address
 * (no trailing slash), its process id and a close that stops it and removes its directory (a
 * data directory given stays, with the databases in it).
 * @param {{ port?: number, dataDir?: string }} [options]
 * @returns {Promise<{ url: string, pid: number, port: number, close: () => Promise<void> }>}
 */
export async function startCouchServer({ port, dataDir } = {}) {
	const entry = join(dirname(require.resolve('pouchdb-server/package.json')), 'bin', 'pouchdb-server');
	const listening = port ?? (await freePort());
	const dir = dataDir ?? mkdtempSync(join(tmpdir(), 'palimpsest-couch-'));
	const storage = dataDir ? ['--dir', dataDir] : ['--in-memory'];
	const args = [entry, ...storage, '--port', String(listening), '--host', '127.0.0.1', '--config', join(dir, 'config.json'), '--no-color'];
	const removeDir = () => {
		if (!dataDir) rmSync(dir, { recursive: true, force: true });
	};
	let server;
	try {
		server = await startProcess('The sync test server', args, { ready: /has started on/, cwd: dir });
	} catch (error) {
		removeDir();
		throw error;
	}
	const { pid, close } = server;
	return {
		url: `http://127.0.0.1:${listening}`,
		pid,
		port: listening,
		/** @returns {Promise<void>} */
		close: async () => {
			await close();
			removeDir();
		}
	};
}
