// Starts a test server as a child process of Node and resolves once it says it is ready; it is
// stopped by its process id. Its output is read and forgotten after that, so a full pipe never
// stalls it.
import { spawn } from 'node:child_process';

/**
 * Runs `node args…`; resolves once its output matches `ready`, with its process id and a close
 * that stops it by that id. A process that does not start within 20 s is killed.
 * @param {string} name what the server is, for errors ("The sync test server")
 * @param {string[]} args
 * @param {{ ready: RegExp, env?: Record<string, string>, cwd?: string }} options
 * @returns {Promise<{ pid: number, close: () => Promise<void> }>}
 */
export async function startProcess(name, args, { ready, env = {}, cwd }) {
	const child = spawn(process.execPath, args, { cwd, env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
	let output = '';
	try {
		await new Promise((resolve, reject) => {
			const timer = setTimeout(() => reject(new Error(`${name} did not start within 20 s:\n${output}`)), 20_000);
			/** @param {Buffer} chunk */
			const listen = (chunk) => {
				output += String(chunk);
				if (ready.test(output)) {
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
	} catch (error) {
		if (child.exitCode === null && child.signalCode === null) process.kill(/** @type {number} */ (child.pid), 'SIGKILL');
		throw error;
	}
	child.stdout.removeAllListeners('data');
	child.stderr.removeAllListeners('data');
	child.removeAllListeners('exit');
	child.stdout.resume();
	child.stderr.resume();
	return {
		pid: /** @type {number} */ (child.pid),
		close: () =>
			new Promise((resolve) => {
				if (child.exitCode !== null || child.signalCode !== null) return resolve(undefined);
				child.once('exit', () => resolve(undefined));
				process.kill(/** @type {number} */ (child.pid), 'SIGTERM');
			})
	};
}
