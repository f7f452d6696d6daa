// Which built files the service worker precaches. Some are fetched on first use instead, and kept
// for offline use from then on: the cl100k token table (about 1 MB, only for older OpenAI
// models; its worker chunk is named after it by name-encoding-chunks.js), PDF.js (about 470 KB
// compressed, needed only to read an attached PDF; its worker chunks are named there too), and
// llama.cpp's WebAssembly engine (10 MB, 2.9 MB compressed), which only a user who adds an in-browser model
// needs; adding one loads it, so it is cached before that user can go offline. KaTeX's fonts
// come as WOFF2, WOFF and TrueType; a browser that runs this app takes the WOFF2 ones, so only
// those are precached.
export function isPrecached(path: string): boolean {
	return !/cl100k_base-|\/workers\/chunks\/pdfjs-|\/wllama-[\w-]+\.wasm$|\/KaTeX_[\w.-]+\.(?:woff|ttf)$/.test(path);
}
