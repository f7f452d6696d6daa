// The images a request's rows show, read for the request: each one's bytes from the database,
// as base64. Encoding happens outside this thread where the browser can (FileReader), and an
// image read once is kept (images never change), within a bound, so a turn of several rounds
// reads each once.
import { blobIdsOf, readImages } from '../db/message-verbs';
import type { PalimpsestDb } from '../db/database';
import type { MessageRow } from '../db/schema';
import { encodeBase64 } from '../hooks/image-bytes';
import type { ChatImage } from '../providers/types';
import type { RequestImages } from './build-request';

/** Characters of base64 kept between requests. */
const CACHE_CHARS = 64 * 1024 * 1024;
const cache = new Map<string, ChatImage>();
let cached = 0;

/** The ids whose bytes a request carries: a row whose images compaction stopped sending still sends its files. */
function sentIds(rows: readonly MessageRow[]): string[] {
	return rows.flatMap((row) => (row.images_pruned ? (row.attachments ?? []).flatMap((a) => (a.type === 'file' ? [a.id] : [])) : blobIdsOf([row])));
}

export async function readRequestImages(db: PalimpsestDb, sessionId: string, rows: readonly MessageRow[]): Promise<RequestImages> {
	const ids = sentIds(rows);
	const images = new Map<string, ChatImage>();
	const missing: string[] = [];
	for (const id of ids) {
		const hit = cache.get(`${sessionId}\u0000${id}`);
		if (hit) images.set(id, hit);
		else missing.push(id);
	}
	if (!missing.length) return images;
	const blobs = await readImages(db, sessionId, missing);
	for (const [id, blob] of blobs) {
		const image = { mimeType: blob.type, data: await blobToBase64(blob) };
		images.set(id, image);
		remember(`${sessionId}\u0000${id}`, image);
	}
	return images;
}

function remember(key: string, image: ChatImage): void {
	if (image.data.length > CACHE_CHARS / 4) return;
	cache.set(key, image);
	cached += image.data.length;
	// The oldest go first.
	for (const [old, { data }] of cache) {
		if (cached <= CACHE_CHARS) break;
		cache.delete(old);
		cached -= data.length;
	}
}

/** A Blob's bytes as base64. */
export async function blobToBase64(blob: Blob): Promise<string> {
	if (typeof FileReader === 'undefined') return encodeBase64(new Uint8Array(await blob.arrayBuffer()));
	const url = await new Promise<string>((resolve, reject) => {
		const reader = new FileReader();
		reader.onload = () => resolve(String(reader.result));
		reader.onerror = () => reject(reader.error ?? new Error('The image could not be read.'));
		reader.readAsDataURL(blob);
	});
	return url.slice(url.indexOf(',') + 1);
}
