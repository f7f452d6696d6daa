// A Vite plugin that names the tokenizer's encoding chunks after their encoding
// (`…/workers/chunks/cl100k_base-[hash].js`) instead of a bare hash, so the service worker
// can tell the rarely used cl100k table apart and leave it out of its precache. PDF.js's
// chunks, which only a user who attaches a PDF needs, are named `pdfjs-[hash].js` for the same.
// Plain JavaScript so that vite.config.ts can import it with its real file name.

const TABLE = /[\\/]gpt-tokenizer[\\/].*[\\/]bpeRanks[\\/](\w+)\.js$/;
const PDFJS = /[\\/]pdfjs-dist[\\/]/;

/**
 * The encoding whose token table a chunk holds, or null.
 * @param {readonly string[]} moduleIds
 * @returns {string | null}
 */
export function encodingOfChunk(moduleIds) {
	for (const id of moduleIds) {
		const match = TABLE.exec(id);
		if (match) return match[1];
	}
	return null;
}

/**
 * The name a worker chunk goes by: its encoding's, `pdfjs` for PDF.js, or null.
 * @param {readonly string[]} moduleIds
 * @returns {string | null}
 */
export function nameOfChunk(moduleIds) {
	return encodingOfChunk(moduleIds) ?? (moduleIds.some((id) => PDFJS.test(id)) ? 'pdfjs' : null);
}

/** @returns {import('vite').Plugin} */
export function nameEncodingChunks() {
	return {
		name: 'palimpsest:name-encoding-chunks',
		// SvelteKit's own config hook runs first (order 'pre') and sets the worker chunk
		// pattern, `…/workers/chunks/[hash].js`; this keeps its folder and adds the name.
		config(config, env) {
			const output = config.worker?.rolldownOptions?.output;
			const pattern = output && !Array.isArray(output) ? output.chunkFileNames : undefined;
			if (typeof pattern !== 'string' || !pattern.includes('[hash]')) {
				if (env.command === 'build') {
					console.warn('name-encoding-chunks: no worker chunk pattern to extend; the cl100k table will be precached.');
				}
				return;
			}
			return {
				worker: {
					rolldownOptions: {
						output: {
							chunkFileNames: (chunk) => {
								const name = nameOfChunk(chunk.moduleIds);
								return name ? pattern.replace('[hash]', `${name}-[hash]`) : pattern;
							}
						}
					}
				}
			};
		}
	};
}
