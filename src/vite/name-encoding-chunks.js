// A Vite plugin that names the tokenizer's encoding chunks after their encoding
// (`…/workers/chunks/cl100k_base-[hash].js`) instead of a bare hash, so the service worker
// can tell the rarely used cl100k table apart and leave it out of its precache.
// Plain JavaScript so that vite.config.ts can import it with its real file name.

const TABLE = /[\\/]gpt-tokenizer[\\/].*[\\/]bpeRanks[\\/](\w+)\.js$/;

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
								const encoding = encodingOfChunk(chunk.moduleIds);
								return encoding ? pattern.replace('[hash]', `${encoding}-[hash]`) : pattern;
							}
						}
					}
				}
			};
		}
	};
}
