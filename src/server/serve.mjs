// Serves the built app (or any folder) over HTTP with a single-page-app fallback, so deep
// links and reloads work. Used by `npm start` and by the browser tests, and then it sends the
// app's security headers (see security-headers.mjs).
import { createServer } from 'node:http';
import { readFile, stat } from 'node:fs/promises';
import { extname, join, normalize, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { FRAME_PATH, FRAME_SANDBOX } from '../lib/plugins/sandbox/frame-document.js';
import { readPagePolicy, securityHeaders } from './security-headers.mjs';

/** @type {Record<string, string>} */
const TYPES = {
	'.html': 'text/html; charset=utf-8',
	'.js': 'text/javascript; charset=utf-8',
	'.mjs': 'text/javascript; charset=utf-8',
	'.css': 'text/css; charset=utf-8',
	'.json': 'application/json',
	'.webmanifest': 'application/manifest+json',
	'.svg': 'image/svg+xml',
	'.png': 'image/png',
	'.ico': 'image/x-icon',
	'.txt': 'text/plain; charset=utf-8',
	'.ts': 'text/plain; charset=utf-8',
	'.wasm': 'application/wasm'
};

/**
 * `secure`: send the security headers, with the Content-Security-Policy of `root`/index.html.
 * A plugin's frame document is always sent with its own policy and sandbox (never the page's).
 * `isolated`: make pages cross-origin isolated (benchmarks: performance.now() then resolves 5 µs, not 100 µs).
 * @param {{ root: string, port?: number, host?: string, fallback?: string | null, cors?: boolean, secure?: boolean, isolated?: boolean }} options
 * @returns {Promise<{ url: string, close: () => Promise<void> }>}
 */
export async function serve({ root, port = 0, host = '127.0.0.1', fallback = 'index.html', cors = false, secure = false, isolated = false }) {
	const base = resolve(root);
	/** @param {string} file */
	const policyOf = async (file) => readPagePolicy(await readFile(join(base, file), 'utf8').catch(() => ''));
	const security = secure ? securityHeaders(await policyOf('index.html')) : {};
	const frameFile = join(base, FRAME_PATH);
	// Always: without its sandbox a plugin's frame would have the app's origin, and the app starts no plugin there.
	const frameSecurity = securityHeaders(await policyOf(FRAME_PATH), { sandbox: FRAME_SANDBOX });
	/** @param {import('node:http').IncomingMessage} req @param {import('node:http').ServerResponse} res */
	async function handle(req, res) {
		const headers = {
			...security,
			...(cors ? { 'Access-Control-Allow-Origin': '*' } : {}),
			...(isolated ? { 'Cross-Origin-Opener-Policy': 'same-origin', 'Cross-Origin-Embedder-Policy': 'require-corp' } : {})
		};
		const path = decodePath(req.url);
		if (path === null) {
			res.writeHead(400, { ...headers, 'Content-Type': 'text/plain' }).end('Bad request');
			return;
		}
		const file = normalize(join(base, path));
		// `base + sep`, not `base`: a sibling such as `build-secret` also starts with `build`.
		if (file !== base && !file.startsWith(base + sep)) {
			res.writeHead(403, { ...headers, 'Content-Type': 'text/plain' }).end('Forbidden');
			return;
		}
		const target = (await isFile(file))
			? file
			: (await isFile(join(file, 'index.html')))
				? join(file, 'index.html')
				: fallback && !extname(path)
					? join(base, fallback)
					: null;
		if (!target) {
			res.writeHead(404, { ...headers, 'Content-Type': 'text/plain' }).end('Not found');
			return;
		}
		const body = req.method === 'HEAD' ? undefined : await readFile(target);
		const immutable = target.includes(`${join('_app', 'immutable')}`);
		res.writeHead(200, {
			...headers,
			// Replaces the page's headers: the frame's policy alone holds there.
			...(target === frameFile ? frameSecurity : {}),
			'Content-Type': TYPES[extname(target)] ?? 'application/octet-stream',
			'Cache-Control': immutable ? 'public, max-age=31536000, immutable' : 'no-cache'
		});
		res.end(body);
	}
	// A rejected promise in a request handler would take the whole process down.
	const server = createServer((req, res) => {
		handle(req, res).catch((error) => {
			console.error(`serve: ${req.method} ${req.url} failed:`, error);
			if (!res.headersSent) res.writeHead(500, { ...security, 'Content-Type': 'text/plain' }).end('Internal server error');
			else res.destroy();
		});
	});
	await new Promise((done) => server.listen(port, host, () => done(undefined)));
	const address = /** @type {import('node:net').AddressInfo} */ (server.address());
	return {
		// An IPv6 address, such as the loopback ::1, is written in brackets in a URL.
		url: `http://${host.includes(':') ? `[${host}]` : host}:${address.port}`,
		close: () =>
			new Promise((done) => {
				server.closeAllConnections();
				server.close(() => done(undefined));
			})
	};
}

/**
 * The request's path, percent-decoded; null when the encoding is malformed (e.g. `%E0%A4%A`).
 * @param {string | undefined} url
 */
function decodePath(url) {
	try {
		return decodeURIComponent(new URL(url ?? '/', 'http://x').pathname);
	} catch {
		return null;
	}
}

/** @param {string} path */
async function isFile(path) {
	try {
		return (await stat(path)).isFile();
	} catch {
		return false;
	}
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
	const port = Number(process.env.PORT ?? 4173);
	const { url } = await serve({ root: process.argv[2] ?? 'build', port, secure: true });
	console.log(`Palimpsest is running at ${url}/ (Ctrl+C to stop)`);
}
