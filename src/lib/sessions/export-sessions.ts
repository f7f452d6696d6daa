// Builds an export file from a profile's sessions, a batch at a time (the next read while one is
// written out), so a large profile is never held in memory as rows and text at once. JSON is complete and re-importable; Markdown is for reading.
import type { PalimpsestDb } from '../db/database';
import type { SessionRow } from '../db/schema';
import { listAllSessions, readSessionsWithMessages, type SessionWithMessages } from '../db/transfer-verbs';
import { listPrompts } from '../db/prompt-verbs';
import type { PromptRow } from '../db/schema';
import { encodeBase64 } from '../hooks/image-bytes';
import { markdownHeader, sessionToMarkdown } from './format-markdown';
import { sliceByRows } from './slice-by-rows';
import { EXPORT_FORMAT, EXPORT_VERSION, formatBytes, type ExportKind, type ExportResult } from './transfer-format';
import { IMPORT_LIMITS } from './import-rows';

/**
 * Messages per batch read, going by each session's message count: some 2.5 MB of rows, however
 * many sessions that takes (fifty sessions of a profile's longest could hold millions).
 */
const BATCH_ROWS = 5_000;

/**
 * The chosen sessions plus the sessions they continue after a compaction rotation
 * (`parent_kind = compression`), so an exported session keeps its compaction history. Branch
 * and delegate parents are separate conversations and come only when chosen.
 */
export function withCompressionAncestors(rows: SessionRow[], ids: readonly string[]): SessionRow[] {
	const byId = new Map(rows.map((row) => [row.id, row]));
	const chosen = new Set<string>();
	for (const id of ids) {
		let row = byId.get(id);
		while (row && !chosen.has(row.id)) {
			chosen.add(row.id);
			row = row.parent_kind === 'compression' && row.parent_session_id ? byId.get(row.parent_session_id) : undefined;
		}
	}
	return rows.filter((row) => chosen.has(row.id));
}

function exportFilename(profile: string, now: number, ids: readonly string[] | 'all', kind: ExportKind): string {
	const date = new Date(now).toISOString().slice(0, 10);
	const what = ids === 'all' ? '' : ids.length === 1 ? `-${ids[0].slice(0, 8)}` : `-${ids.length}-sessions`;
	return `palimpsest-${profile}-${date}${what}.${kind === 'json' ? 'json' : 'md'}`;
}

export interface ExportRequest {
	/** The profile id, recorded in the file. */
	profile: string;
	/** What the user calls the profile, for the Markdown heading. */
	label?: string;
	ids: readonly string[] | 'all';
	kind: ExportKind;
	now?: number;
	onProgress?: (done: number, total: number) => void;
}

/**
 * Exports `ids` (or every session, archived ones too, and then the saved prompts with them in
 * JSON) of the profile's database. Only sessions, their messages and prompts are written: never
 * settings (API keys live there), plugins or plugin storage.
 */
export async function exportSessions(db: PalimpsestDb, request: ExportRequest): Promise<ExportResult> {
	const { profile, ids, kind, now = Date.now(), onProgress = () => {} } = request;
	const [rows, prompts] = await Promise.all([listAllSessions(db), ids === 'all' && kind === 'json' ? listPrompts(db) : []]);
	const chosen = (ids === 'all' ? rows : withCompressionAncestors(rows, ids)).sort(
		(a, b) => a.created_at - b.created_at || (a.id < b.id ? -1 : 1)
	);
	if (chosen.length === 0 && prompts.length === 0) throw new Error(ids === 'all' ? 'There are no sessions to export.' : 'The chosen sessions no longer exist.');
	// Each batch becomes a Blob at once, so its text can be freed: memory holds two batches of
	// rows (this one and the next) and one of text at a time, whatever the size of the whole file or of its sessions.
	const separator = kind === 'json' ? ',\n' : '\n---\n\n';
	const body: Blob[] = [];
	let sessions = 0;
	let messages = 0;
	let done = 0;
	const blobBytes = { total: 0 };
	const batches = sliceByRows(chosen, (row) => row.message_count, BATCH_ROWS);
	const read = (i: number) => readSessionsWithMessages(db, batches[i].map((row) => row.id));
	// The next batch is read while this one becomes text: IndexedDB works beside the script.
	let next = batches.length ? read(0) : Promise.resolve([]);
	for (let i = 0; i < batches.length; i++) {
		const batch = batches[i];
		const entries = await next;
		if (i + 1 < batches.length) {
			next = read(i + 1);
			// Awaited on the next round; a failure while this batch is written out is not left unheard.
			next.catch(() => {});
		}
		const texts = await Promise.all(entries.map(async (entry) => (kind === 'json' ? JSON.stringify(await withImageData(entry, blobBytes)) : sessionToMarkdown(entry))));
		if (texts.length) body.push(new Blob([(sessions ? separator : '') + texts.join(separator)]));
		sessions += entries.length;
		for (const entry of entries) messages += entry.messages.length;
		done += batch.length;
		onProgress(done, chosen.length);
	}
	const parts =
		kind === 'json'
			? [jsonHeader(profile, now, sessions, messages, prompts), ...body, '\n]}\n']
			: [markdownHeader(request.label ?? profile, now, sessions), ...body];
	return {
		blob: new Blob(parts, { type: kind === 'json' ? 'application/json' : 'text/markdown' }),
		filename: exportFilename(profile, now, ids, kind),
		sessions,
		messages,
		prompts: prompts.length
	};
}

/**
 * An entry as the file holds it: its images' and files' bytes as base64, beside its messages,
 * within what an import takes of them together (`bytes` counts across the file).
 */
async function withImageData({ images, ...entry }: SessionWithMessages, bytes: { total: number }): Promise<object> {
	if (!images?.length) return entry;
	bytes.total += images.reduce((sum, image) => sum + image.data.size, 0);
	if (bytes.total > IMPORT_LIMITS.blobBytes) {
		throw new Error(`These sessions hold more than ${formatBytes(IMPORT_LIMITS.blobBytes)} of images and files, more than an import takes from one file. Export fewer sessions at a time.`);
	}
	return { ...entry, images: await Promise.all(images.map(async ({ id, type, data }) => ({ id, type, data: encodeBase64(new Uint8Array(await data.arrayBuffer())) }))) };
}

/** Everything of the file before its sessions (the prompts too, when there are any), one session per line after it. */
function jsonHeader(profile: string, now: number, sessions: number, messages: number, prompts: readonly PromptRow[]): string {
	const header = { format: EXPORT_FORMAT, version: EXPORT_VERSION, exported_at: now, profile, session_count: sessions, message_count: messages, ...(prompts.length ? { prompts } : {}) };
	return `${JSON.stringify(header).slice(0, -1)},"sessions":[\n`;
}
