// A CouchDB-compatible sync server for the tests: pouchdb-server (a devDependency) in memory on a
// free loopback port, started in a directory of its own (it writes its config and log there) and
// stopped by its process id. It lets any origin in, credentials included, as the browser tests need.
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { freePort } from './tool-server.mjs';

const require = createRequire(import.meta.url);

/**
 * Starts the server (on `port`, or a free one); resolves once it listens, with its address
 * (no trailing slash), its process id and a close that stops it and removes its directory.
 * @param {{ port?: number }} [options]
 * @returns {Promise<{ url: string, pid: number, close: () => Promise<void> }>}
 */
export async function startCouchServer({ port } = {}) {
	const entry = join(dirname(require.resolve('pouchdb-server/package.json')), 'bin', 'pouchdb-server');
	port ??= await freePort();
	const dir = mkdtempSync(join(tmpdir(), 'palimpsest-couch-'));
	const args = [entry, '--in-memory', '--port', String(port), '--host', '127.0.0.1', '--config', join(dir, 'config.json'), '--no-color'];
	const child = spawn(process.execPath, args, { cwd: dir, stdio: ['ignore', 'pipe', 'pipe'] });
	const removeDir = () => rmSync(dir, { recursive: true, force: true });
	let output = '';
	try {
		await new Promise((resolve, reject) => {
			const timer = setTimeout(() => reject(new Error(`The sync test server did not start within 20 s:\n${output}`)), 20_000);
			/** @param {Buffer} chunk */
			const listen = (chunk) => {
				output += String(chunk);
				if (/has started on/.test(output)) {
					clearTimeout(timer);
					resolve(undefined);
				}
			};
			child.stdout.on('data', listen);
			child.stderr.on('data', listen);
			child.once('exit', (code) => {
				clearTimeout(timer);
				reject(new Error(`The sync test server stopped (${code}):\n${output}`));
			});
		});
	} catch (error) {
		if (child.exitCode === null && child.signalCode === null) process.kill(/** @type {number} */ (child.pid), 'SIGKILL');
		removeDir();
		throw error;
	}
	// It logs every request: read and forget, so a full pipe never stalls it.
	child.stdout.removeAllListeners('data');
	child.stderr.removeAllListeners('data');
	child.removeAllListeners('exit');
	child.stdout.resume();
	child.stderr.resume();
	const pid = /** @type {number} */ (child.pid);
	return {
		url: `http://127.0.0.1:${port}`,
		pid,
		/** @returns {Promise<void>} */
		close: () =>
			new Promise((resolve) => {
				const done = () => {
					removeDir();
					resolve(undefined);
				};
				if (child.exitCode !== null || child.signalCode !== null) return done();
				child.once('exit', done);
				process.kill(pid, 'SIGTERM');
			})
	};
}
