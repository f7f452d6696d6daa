// The MCP servers for the browser tests and benchmarks, each started on free loopback ports and
// stopped by its process id: the reference server (@modelcontextprotocol/server-everything, a
// devDependency) with its Streamable HTTP transport, and a server that asks for sign-in.
import { spawn } from 'node:child_process';
import { createServer } from 'node:net';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

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
	const child = await startProcess('The reference tool server', [entry, 'streamableHttp'], { PORT: String(port) });
	return { url: `http://127.0.0.1:${port}/mcp`, pid: child.pid, close: child.close };
}

/**
 * Starts the tool server that asks for sign-in (sign-in-tool-server.mjs) and its authorization
 * server, letting `appOrigin` in; resolves once both listen. `authUrl` is for the test's own
 * look at the authorization server (GET /test/stats, POST /test/forget-refresh-tokens).
 * @param {string} appOrigin
 * @returns {Promise<{ url: string, authUrl: string, pid: number, close: () => Promise<void> }>}
 */
export async function startSignInToolServer(appOrigin) {
	const mcpPort = await freePort();
	let authPort = await freePort();
	while (authPort === mcpPort) authPort = await freePort();
	const script = fileURLToPath(new URL('./sign-in-tool-server.mjs', import.meta.url));
	const child = await startProcess('The sign-in tool server', [script], { MCP_PORT: String(mcpPort), AUTH_PORT: String(authPort), APP_ORIGIN: appOrigin });
	return { url: `http://127.0.0.1:${mcpPort}/mcp`, authUrl: `http://127.0.0.1:${authPort}`, pid: child.pid, close: child.close };
}

/**
 * Runs `node args…` with `env` added; resolves once it says it is listening, with its process
 * id and a close that stops it by that id.
 * @param {string} name
 * @param {string[]} args
 * @param {Record<string, string>} env
 */
async function startProcess(name, args, env) {
	const child = spawn(process.execPath, args, { env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
	let output = '';
	await new Promise((resolve, reject) => {
		const timer = setTimeout(() => reject(new Error(`${name} did not start within 20 s:\n${output}`)), 20_000);
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
			reject(new Error(`${name} stopped (${code}):\n${output}`));
		});
	});
	child.stdout.removeAllListeners('data');
	child.stderr.removeAllListeners('data');
	child.stdout.resume();
	child.stderr.resume();
	return {
		pid: /** @type {number} */ (child.pid),
		/** @returns {Promise<void>} */
		close: () =>
			new Promise((resolve) => {
				if (child.exitCode !== null || child.signalCode !== null) return resolve(undefined);
				child.once('exit', () => resolve(undefined));
				process.kill(/** @type {number} */ (child.pid), 'SIGTERM');
			})
	};
}
