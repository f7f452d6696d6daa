// Sends the plugin frame's own policy, with its sandbox, as a header in `vite dev` and `vite
// preview`, as src/server/serve.mjs does for the built app: without it a plugin's frame has the
// app's origin, and the app refuses to start plugins there.
import { readFile } from 'node:fs/promises';
import { resolve } from 'node:path';
import { FRAME_PATH, FRAME_SANDBOX } from '../lib/plugins/sandbox/frame-document.js';
import { readPagePolicy, securityHeaders } from '../server/security-headers.mjs';

/** @returns {import('vite').Plugin} */
export function pluginFrameHeaders() {
	let file = '';
	/** @type {import('vite').Connect.NextHandleFunction} */
	const send = (req, res, next) => {
		if (new URL(req.url ?? '/', 'http://x').pathname !== FRAME_PATH) return next();
		readFile(file, 'utf8').then(
			(html) => {
				for (const [name, value] of Object.entries(securityHeaders(readPagePolicy(html), { sandbox: FRAME_SANDBOX }))) res.setHeader(name, value);
				next();
			},
			(error) => next(error)
		);
	};
	return {
		name: 'palimpsest-plugin-frame-headers',
		configResolved(config) {
			file = resolve(config.publicDir, FRAME_PATH.slice(1));
		},
		configureServer: (server) => void server.middlewares.use(send),
		configurePreviewServer: (server) => void server.middlewares.use(send)
	};
}
