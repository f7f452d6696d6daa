// Serves the built app (or any folder) over HTTP with a single-page-app fallback, so deep
// links and reloads work. Used by `npm start` and by the browser tests.
import { createServer } from 'node:http';
import { readFile, stat } from 'node:fs/promises';
import { extname, join, normalize, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

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
 * @param {{ root: string, port?: number, host?: string, fallback?: string | null, cors?: boolean }} options
 * @returns {Promise<{ url: string, close: () => Promise<void> }>}
 */
export async function serve({ root, port = 0, host = '127.0.0.1', fallback = 'index.html', cors = false }) {
	const base = resolve(root);
	const server = createServer(async (req, res) => {
		const headers = cors ? { 'Access-Control-Allow-Origin': '*' } : {};
		const path = decodeURIComponent(new URL(req.url ?? '/', 'http://x').pathname);
		const file = normalize(join(base, path));
		if (!file.startsWith(base)) {
			res.writeHead(403, headers).end('Forbidden');
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
		const immutable = target.includes(`${join('_app', 'immutable')}`);
		res.writeHead(200, {
			...headers,
			'Content-Type': TYPES[extname(target)] ?? 'application/octet-stream',
			'Cache-Control': immutable ? 'public, max-age=31536000, immutable' : 'no-cache'
		});
		res.end(req.method === 'HEAD' ? undefined : await readFile(target));
	});
	await new Promise((done) => server.listen(port, host, () => done(undefined)));
	const address = /** @type {import('node:net').AddressInfo} */ (server.address());
	return {
		url: `http://${host}:${address.port}`,
		close: () =>
			new Promise((done) => {
				server.closeAllConnections();
				server.close(() => done(undefined));
			})
	};
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
	const { url } = await serve({ root: process.argv[2] ?? 'build', port });
	console.log(`Palimpsest is running at ${url}/ (Ctrl+C to stop)`);
}
