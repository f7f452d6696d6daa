// The import id an imported file's sessions carry (SessionRow.import_id), made from the file's
// text, so the same file always gets the same one and no other file can. Pure but for WebCrypto.

/** Characters hashed at a time for an import id, so a large file is never copied whole again. */
const ID_BLOCK_CHARS = 4 * 1024 * 1024;

/**
 * The import id of a file's sessions (SessionRow.import_id): a digest of its text (SHA-256 of
 * the SHA-256 of each block). Importing the same file again (to add what an import that
 * stopped part-way did not) files the rest under the same origin as the sessions it already
 * added; any other file gets another.
 */
export async function fileImportId(text: string): Promise<string> {
	const encoder = new TextEncoder();
	const blocks: Uint8Array[] = [];
	let at = 0;
	do {
		let end = Math.min(text.length, at + ID_BLOCK_CHARS);
		// A block never ends inside a surrogate pair (its halves alone would encode as U+FFFD).
		const last = text.charCodeAt(end - 1);
		if (end < text.length && last >= 0xd800 && last <= 0xdbff) end += 1;
		blocks.push(new Uint8Array(await crypto.subtle.digest('SHA-256', encoder.encode(text.slice(at, end)))));
		at = end;
	} while (at < text.length);
	const all = new Uint8Array(blocks.length * 32);
	blocks.forEach((block, i) => all.set(block, i * 32));
	const digest = new Uint8Array(await crypto.subtle.digest('SHA-256', all));
	return `file-${Array.from(digest.subarray(0, 16), (byte) => byte.toString(16).padStart(2, '0')).join('')}`;
}
