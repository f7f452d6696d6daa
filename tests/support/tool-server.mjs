// The MCP servers for the browser tests and benchmarks, each started on free loopback ports and
// stopped by its process id: the reference server (@modelcontextprotocol/server-everything, a
// devDependency) with its Streamable HTTP transport, and a server that asks for sign-in; and a
// pass-through that notes what a server was sent.
import { startProcess } from './start-process.mjs';
import { createServer } from 'node:net';
import { createServer as createHttpServer, request as httpRequest } from 'node:http';
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
	const child = await startProcess('The reference tool server', [entry, 'streamableHttp'], { ready: /listening on port/i, env: { PORT: String(port) } });
	return { url: `http://127.0.0.1:${port}/mcp`, pid: child.pid, close: child.close };
}

/**
 * Starts the tool server that asks for sign-in (sign-in-tool-server.mjs) and its two
 * authorization servers, letting `appOrigin` in; resolves once all listen. `authUrl` and
 * `auth2Url` are for the test's own look at the authorization servers (GET /test/stats) and for
 * its switches (POST /test/…, on the first).
 * @param {string} appOrigin
 * @returns {Promise<{ url: string, authUrl: string, auth2Url: string, pid: number, close: () => Promise<void> }>}
 */
export async function startSignInToolServer(appOrigin) {
	const ports = new Set();
	while (ports.size < 3) ports.add(await freePort());
	const [mcpPort, authPort, auth2Port] = [...ports];
	const script = fileURLToPath(new URL('./sign-in-tool-server.mjs', import.meta.url));
	const child = await startProcess('The sign-in tool server', [script], {
		ready: /listening on port/i,
		env: { MCP_PORT: String(mcpPort), AUTH_PORT: String(authPort), AUTH2_PORT: String(auth2Port), APP_ORIGIN: appOrigin }
	});
	return { url: `http://127.0.0.1:${mcpPort}/mcp`, authUrl: `http://127.0.0.1:${authPort}`, auth2Url: `http://127.0.0.1:${auth2Port}`, pid: child.pid, close: child.close };
}

/**
 * A pass-through in front of a tool server that notes every tool call the server is sent (its
 * tool and arguments, as they went), so a test can tell what the server received. Runs in the
 * test's own process; `close` stops it.
 * @param {string} targetUrl the server's /mcp address
 * @returns {Promise<{ url: string, calls: Array<{ name: string, arguments: unknown }>, close: () => Promise<void> }>}
 */
export async function startRecordingProxy(targetUrl) {
	const target = new URL(targetUrl);
	/** @type {Array<{ name: string, arguments: unknown }>} */
	const calls = [];
	/** @param {Buffer} body */
	const note = (body) => {
		let parsed;
		try {
			parsed = JSON.parse(body.toString('utf8'));
		} catch {
			return;
		}
		for (const message of Array.isArray(parsed) ? parsed : [parsed]) {
			if (message?.method === 'tools/call') calls.push({ name: message.params?.name, arguments: message.params?.arguments });
		}
	};
	const server = createHttpServer((req, res) => {
		/** @type {Buffer[]} */
		const chunks = [];
		req.on('data', (chunk) => chunks.push(chunk));
		req.on('end', () => {
			const body = Buffer.concat(chunks);
			if (req.method === 'POST') note(body);
			const upstream = httpRequest({ host: target.hostname, port: target.port, method: req.method, path: req.url, headers: { ...req.headers, host: target.host } }, (answer) => {
				res.writeHead(answer.statusCode ?? 502, answer.headers);
				answer.pipe(res);
			});
			upstream.on('error', () => res.destroy());
			upstream.end(body);
		});
	});
	await new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve(undefined)));
	const { port } = /** @type {import('node:net').AddressInfo} */ (server.address());
	return {
		url: `http://127.0.0.1:${port}${target.pathname}`,
		calls,
		close: () =>
			new Promise((resolve) => {
				server.closeAllConnections();
				server.close(() => resolve());
			})
	};
}
