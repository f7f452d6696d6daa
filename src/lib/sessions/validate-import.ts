// Reads an export file's text into entries, refusing anything that is not a complete file of
// a version this app knows. Pure: nothing here touches the database, so a refusal changes nothing.
import type { Attachment, BlobRow, MessageRow, SessionRow } from '../db/schema';
import { decodeBase64, decodedBytes, isBase64 } from '../hooks/image-bytes';
import { IMPORT_LIMITS, parseMessageRow, parseSessionRow, type ImportedMessage } from './import-rows';
import { withPositionsInOrder, type RandomBytes } from '../db/position-clock';
import { adoptLegacyRows } from '../db/legacy-conversation';
import type { ImportedEntry } from './import-links';
import { FieldError, isPlainObject, type Parse } from './import-schema';
import { EXPORT_FORMAT, EXPORT_VERSION, formatBytes, ImportError, MAX_IMPORT_BYTES } from './transfer-format';
import { checkBytes } from '../attachments/check-bytes';
import { declaredBlobs, describeDeclared } from '../attachments/declared-blobs';
import type { PromptRow } from '../db/schema';
import { readPrompts } from '../prompts/read-prompts';

/** Refuses a file too large to import, before anything of it is read. */
export function checkImportSize(bytes: number): void {
	if (bytes <= MAX_IMPORT_BYTES) return;
	const limit = formatBytes(MAX_IMPORT_BYTES);
	const size = formatBytes(bytes);
	throw new ImportError(
		`This file is ${size === limit ? `just over ${limit}` : size}; Palimpsest imports files of up to ${limit}. Export fewer sessions at a time (Chosen sessions) and import each file.`
	);
}

function describePath(path: string[]): string {
	return path.map((key, i) => (/^\d+$/.test(key) ? `[${key}]` : i ? `.${key}` : key)).join('');
}

/**
 * Reads one row with `parse`, turning a misfit into the ImportError the user sees. `where`
 * names the row, and is only called for a misfit (a file has a hundred thousand rows that fit).
 */
function readRow<T>(parse: Parse<T>, row: unknown, where: () => string, dropped: { fields: number }): T {
	try {
		return parse(row, dropped);
	} catch (error) {
		if (!(error instanceof FieldError)) throw error;
		if (!error.path.length) throw new ImportError(`The file is malformed: ${where()} is not ${error.expected}.`);
		throw new ImportError(`The file is malformed: ${where()} has “${describePath(error.path)}” ${describe(error.value)}, expected ${error.expected}.`);
	}
}

function describe(value: unknown): string {
	if (value === undefined) return 'missing';
	const text = JSON.stringify(value) ?? String(value);
	return `= ${text.length > 40 ? `${text.slice(0, 39)}…` : text}`;
}

function parseJson(text: string): unknown {
	if (!text.trim()) throw new ImportError('The file is empty.');
	try {
		return JSON.parse(text);
	} catch {
		throw new ImportError('The file is not a complete Palimpsest export: it is not valid JSON (it may have been cut short or changed by hand).');
	}
}

/** The header's checks: a Palimpsest sessions file, of a version this app reads. */
function checkHeader(file: unknown): asserts file is Record<string, unknown> {
	if (!isPlainObject(file) || !('format' in file)) {
		throw new ImportError('This is not a Palimpsest sessions export (it has no “format” field). Export sessions from Palimpsest’s Settings to get a file that can be imported.');
	}
	const { format, version } = file as Record<string, unknown>;
	if (format !== EXPORT_FORMAT) {
		throw new ImportError(`This is not a Palimpsest sessions export: its format is ${describe(format).replace(/^= /, '')}, not “${EXPORT_FORMAT}”.`);
	}
	if (typeof version !== 'number' || !Number.isInteger(version) || version < 1) {
		throw new ImportError(`The file is malformed: its format version ${describe(version).replace(/^= /, '')} is not a version number.`);
	}
	if (version > EXPORT_VERSION) {
		throw new ImportError(`This export was made by a newer Palimpsest (file format version ${version}; this app reads up to version ${EXPORT_VERSION}). Update Palimpsest to import it.`);
	}
}

export interface ParsedFile {
	entries: ImportedEntry[];
	/** Fields the app does not know, left out. */
	droppedFields: number;
	/** The saved prompts that fit what a prompt may be here. */
	prompts: PromptRow[];
	/** Entries of the file's prompts that do not, left out. */
	droppedPrompts: number;
}

/**
 * The sessions of an export file, each with its messages, every row read field by field into
 * the shapes the app stores. Throws an ImportError saying what is wrong with a foreign,
 * future-version, malformed or truncated file. `onProgress(done, total)` is called every few sessions.
 */
export function parseExportFile(text: string, onProgress?: (done: number, total: number) => void): ParsedFile {
	const file = parseJson(text);
	checkHeader(file);
	const { sessions, session_count, message_count } = file;
	// Prompts are checked one by one: one that does not fit is left out and counted, the rest kept.
	const prompts = readPrompts(file.prompts);
	if (!Array.isArray(sessions)) throw new ImportError('The file is malformed: it has no list of sessions.');
	if (sessions.length > IMPORT_LIMITS.sessions) {
		throw new ImportError(`The file holds ${sessions.length.toLocaleString('en')} sessions; an import takes at most ${IMPORT_LIMITS.sessions.toLocaleString('en')}. Export fewer sessions at a time.`);
	}
	const sessionIds = new Set<string>();
	const dropped = { fields: 0 };
	const blobs = { bytes: 0 };
	let messages = 0;
	const entries = sessions.map((entry: unknown, index): ImportedEntry => {
		const where = () => `session ${index + 1}`;
		if (!isPlainObject(entry) || !Array.isArray(entry.messages) || entry.messages.length > IMPORT_LIMITS.messagesPerSession) {
			throw new ImportError(`The file is malformed: ${where()} is not a session with a list of at most ${IMPORT_LIMITS.messagesPerSession.toLocaleString('en')} messages.`);
		}
		for (const key of Object.keys(entry)) if (key !== 'session' && key !== 'messages' && key !== 'images') dropped.fields += 1;
		const session = readRow(parseSessionRow, entry.session, where, dropped);
		const { id } = session;
		if (sessionIds.has(id)) throw new ImportError(`The file is malformed: session ${id} appears twice.`);
		sessionIds.add(id);
		const seqs = new Set<number>();
		const positions = new Set<string>();
		const list = entry.messages as unknown[];
		const rows: ImportedMessage[] = new Array(list.length);
		for (let at = 0; at < list.length; at++) {
			const row = list[at];
			const rowWhere = () => `message ${at + 1} of session ${id}`;
			if (isPlainObject(row) && Object.hasOwn(row, 'session_id') && row.session_id !== id) {
				throw new ImportError(`The file is malformed: ${rowWhere()} belongs to ${describe(row.session_id).replace(/^= /, '')}.`);
			}
			const message = readRow(parseMessageRow, row, rowWhere, dropped);
			if (seqs.has(message.seq)) throw new ImportError(`The file is malformed: session ${id} has two messages at position ${message.seq}.`);
			seqs.add(message.seq);
			if (message.position !== undefined) {
				if (positions.has(message.position)) throw new ImportError(`The file is malformed: session ${id} has two messages at position ${message.position}.`);
				positions.add(message.position);
			}
			rows[at] = message;
		}
		messages += rows.length;
		const images = readImages(entry.images, rows, id, dropped, blobs);
		if (onProgress && (index + 1) % 50 === 0) onProgress(index + 1, sessions.length);
		return { session, messages: withKeptTypes(rows, images), ...(images.length ? { images } : {}) };
	});
	if (session_count !== sessions.length || message_count !== messages) {
		throw new ImportError(
			`The file is incomplete: it says it holds ${describeCount(session_count, 'session')} and ${describeCount(message_count, 'message')}, but it has ${sessions.length} and ${messages}.`
		);
	}
	return { entries, droppedFields: dropped.fields + prompts.droppedFields, prompts: prompts.prompts, droppedPrompts: prompts.dropped };
}

/**
 * The bytes of a session's images and attached files, each base64 that passes the one check of
 * every file's bytes (see checkBytes): what the bytes are decides their kind and the type they are
 * kept as, and must be what every message showing them says, in kind, type and size (one id is
 * one file: two messages that say different things of it refuse the file). Every one a message
 * shows must be there, and all of a file's together stay within IMPORT_LIMITS.blobBytes. Those
 * no message shows are left out.
 */
function readImages(raw: unknown, rows: readonly ImportedMessage[], sessionId: string, dropped: { fields: number }, total: { bytes: number }): BlobRow[] {
	const { byId: shown, disagreement } = declaredBlobs(rows);
	if (disagreement) {
		const { id, first, second } = disagreement;
		const sizes = first.kind === second.kind && first.type === second.type;
		throw new ImportError(
			`The file is malformed: session ${sessionId} shows ${id} as ${describeDeclared(first, sizes)} in message ${first.row + 1} and as ${describeDeclared(second, sizes)} in message ${second.row + 1}: one image or file is one thing, of one type.`
		);
	}
	if (raw === undefined && !shown.size) return [];
	if (!Array.isArray(raw) || raw.length > IMPORT_LIMITS.imagesPerSession) {
		throw new ImportError(`The file is malformed: the images of session ${sessionId} are not a list of at most ${IMPORT_LIMITS.imagesPerSession.toLocaleString('en')}.`);
	}
	const images = new Map<string, BlobRow>();
	raw.forEach((image: unknown, at) => {
		const where = `image ${at + 1} of session ${sessionId}`;
		if (!isPlainObject(image) || typeof image.id !== 'string' || typeof image.type !== 'string' || typeof image.data !== 'string') {
			throw new ImportError(`The file is malformed: ${where} is not an object with an id, a type and its data.`);
		}
		const declared = shown.get(image.id);
		if (!declared) return void (dropped.fields += 1);
		if (images.has(image.id)) throw new ImportError(`The file is malformed: ${where} is ${image.id} again; each image or file is in it once.`);
		total.bytes += decodedBytes(image.data);
		if (total.bytes > IMPORT_LIMITS.blobBytes) {
			throw new ImportError(`The file holds more than ${formatBytes(IMPORT_LIMITS.blobBytes)} of images and files; an import takes at most that. Export fewer sessions at a time.`);
		}
		const named = declared.kind === 'image' ? where : `file ${at + 1} of session ${sessionId}`;
		const shownAs = `${describeDeclared(declared)}, as message ${declared.row + 1} shows it`;
		if (image.type !== declared.type) throw new ImportError(`The file is malformed: ${named} is of type ${describe(image.type).replace(/^= /, '')}, not ${shownAs}.`);
		// The size a message says is bounded by its kind's limit: the base64 is measured before it is decoded.
		if (!isBase64(image.data) || decodedBytes(image.data) !== declared.size) {
			throw new ImportError(`The file is malformed: ${named} is not base64 of the ${declared.size} bytes message ${declared.row + 1} says it has.`);
		}
		const bytes = decodeBase64(image.data);
		const checked = checkBytes(bytes, declared);
		if (!checked.ok) throw new ImportError(`The file is malformed: ${named} is not ${shownAs}: ${checked.reason}.`);
		images.set(image.id, { session_id: sessionId, id: image.id, type: checked.type, data: new Blob([bytes], { type: checked.type }) });
	});
	const missing = [...shown.keys()].find((id) => !images.has(id));
	if (missing) throw new ImportError(`The file is incomplete: a message of session ${sessionId} shows ${shown.get(missing)?.kind === 'file' ? 'file' : 'image'} ${missing}, which the file does not hold.`);
	return [...images.values()];
}

/**
 * The rows with each attached file's type as its bytes are kept (a text file said to be HTML,
 * say, is kept as text/plain), so that what a message says of a file and the file agree, here and
 * in every export or sync of it.
 */
function withKeptTypes(rows: ImportedMessage[], images: readonly BlobRow[]): ImportedMessage[] {
	const kept = new Map(images.map((image) => [image.id, image.type]));
	const retyped = (attachment: Attachment) => (kept.has(attachment.id) && kept.get(attachment.id) !== attachment.mimeType ? { ...attachment, mimeType: kept.get(attachment.id)! } : attachment);
	return rows.map((row) => (row.attachments?.some((attachment) => retyped(attachment) !== attachment) ? { ...row, attachments: row.attachments.map(retyped) } : row));
}

function describeCount(value: unknown, noun: string): string {
	return typeof value === 'number' ? `${value} ${noun}${value === 1 ? '' : 's'}` : `an unknown number of ${noun}s`;
}

/**
 * What an entry becomes in the receiving profile: filed under it, marked with the import it came
 * in with, with a free next seq, a position on every message (its own from the file, else one
 * given in seq order from its time), and no answer left "streaming" (nothing streams into an
 * imported session). Everything else, links inside the file, compacted rows, summaries and
 * their fields, is kept as it was.
 */
export function prepareEntry(entry: ImportedEntry, profile: string, importId: string, random?: RandomBytes): { session: SessionRow; messages: MessageRow[]; images?: BlobRow[] } {
	let last = -1;
	for (const row of entry.messages) last = Math.max(last, row.seq);
	const session: SessionRow = {
		...entry.session,
		profile,
		import_id: importId,
		next_seq: Math.max(entry.session.next_seq, Math.floor(last) + 1)
	};
	const placed = withPositionsInOrder(entry.messages, (row) => row.created_at, { keep: true, random });
	const finished: MessageRow[] = placed.map((row): MessageRow => (row.status === 'streaming' ? { ...row, status: 'incomplete' } : row)).sort((a, b) => a.seq - b.seq);
	// Ranks that keep the file's order, and each row's version from the versions the file keeps by number.
	const adopted = adoptLegacyRows(session, finished);
	const { versions: _versions, tip: _tip, version_shown: _shown, ...rest } = session;
	// Settings of which nothing fit leave no field behind.
	if (rest.chat_settings === undefined) delete rest.chat_settings;
	if (rest.assistant === undefined) delete rest.assistant;
	const state = Object.fromEntries(Object.entries(adopted.state).filter(([, value]) => value !== undefined));
	return { session: { ...rest, ...state, ...(adopted.version_shown ? { version_shown: adopted.version_shown } : {}) }, messages: adopted.rows, ...(entry.images ? { images: entry.images } : {}) };
}
