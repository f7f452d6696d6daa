// Which built files the service worker precaches. The cl100k token table (about 1 MB) is only
// for older OpenAI models, so it is fetched on first use instead; its worker chunk is named
// after it by name-encoding-chunks.js.
export function isPrecached(path: string): boolean {
	return !/cl100k_base-/.test(path);
}
