// The MCP reference server (@modelcontextprotocol/server-everything, a devDependency) for the
// browser tests and benchmarks: started on a free loopback port with its Streamable HTTP
// transport, and stopped by its process id.
import { spawn } from 'node:child_process';
import { createServer } from 'node:net';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';

const require = createRequire(import.meta.url);

/** A port nothing listens on now (the server takes it a moment later). */
export function freePort() {
	return new Promise((resolve, reject) => {
		const probe = createServer();
		probe.once('error', reject);
		probe.listen(0, '127.0.0.1', () => {
			const { port } = /** @type {import('node:net').AddressInfo} */ (probe.address());
			probe.close(() => resolve(port));
		});
	});
}

/**
 * Starts the reference server (on `port`, or a free one); resolves once it listens.
 * @param {{ port?: number }} [options]
 * @returns {Promise<{ url: string, pid: number, close: () => Promise<void> }>}
 */
export async function startReferenceToolServer({ port } = {}) {
	const entry = join(dirname(require.resolve('@modelcontextprotocol/server-everything/package.json')), 'dist', 'index.js');
	port ??= await freePort();
	const child = spawn(process.execPath, [entry, 'streamableHttp'], { env: { ...process.env, PORT: String(port) }, stdio: ['ignore', 'pipe', 'pipe'] });
	let output = '';
	await new Promise((resolve, reject) => {
		const timer = setTimeout(() => reject(new Error(`The reference tool server did not start within 20 s:\n${output}`)), 20_000);
		/** @param {Buffer} chunk */
		const listen = (chunk) => {
			output += String(chunk);
			if (/listening on port/i.test(output)) {
				clearTimeout(timer);
				resolve(undefined);
			}
		};
		child.stdout.on('data', listen);
		child.stderr.on('data', listen);
		child.once('exit', (code) => {
			clearTimeout(timer);
			reject(new Error(`The reference tool server stopped (${code}):\n${output}`));
		});
	});
	child.stdout.removeAllListeners('data');
	child.stderr.removeAllListeners('data');
	child.stdout.resume();
	child.stderr.resume();
	return {
		url: `http://127.0.0.1:${port}/mcp`,
		pid: /** @type {number} */ (child.pid),
		close: () =>
			new Promise((resolve) => {
				if (child.exitCode !== null || child.signalCode !== null) return resolve(undefined);
				child.once('exit', () => resolve(undefined));
				process.kill(/** @type {number} */ (child.pid), 'SIGTERM');
			})
	};
}
