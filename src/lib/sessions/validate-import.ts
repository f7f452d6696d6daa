// Reads an export file's text into entries, refusing anything that is not a complete file of
// a version this app knows. Pure: nothing here touches the database, so a refusal changes nothing.
import { NO_COMPACTION_STATE, type MessageRow, type SessionRow } from '../db/schema';
import { EXPORT_FORMAT, EXPORT_VERSION, ImportError, type ExportEntry } from './transfer-format';

type Check = [test: (value: unknown) => boolean, expected: string];

const str: Check = [(v) => typeof v === 'string', 'text'];
const nonEmpty: Check = [(v) => typeof v === 'string' && v.length > 0, 'non-empty text'];
const num: Check = [(v) => typeof v === 'number' && Number.isFinite(v), 'a number'];
const flag: Check = [(v) => v === 0 || v === 1, '0 or 1'];
const nullable = ([test, expected]: Check): Check => [(v) => v === null || test(v), `${expected} or null`];
const optional = ([test, expected]: Check): Check => [(v) => v === undefined || test(v), expected];
const oneOf = (...values: unknown[]): Check => [(v) => values.includes(v), values.map((v) => JSON.stringify(v)).join(', ')];
const list: Check = [Array.isArray, 'a list'];
const object: Check = [(v) => typeof v === 'object' && v !== null && !Array.isArray(v), 'an object'];

const SESSION_FIELDS: Record<string, Check> = {
	id: nonEmpty,
	title: str,
	title_source: oneOf('auto', 'message', 'user'),
	session_key: nonEmpty,
	created_at: num,
	last_activity_at: num,
	ended_at: nullable(num),
	end_reason: nullable(str),
	parent_session_id: nullable(nonEmpty),
	parent_kind: nullable(oneOf('compression', 'branch', 'delegate')),
	archived: flag,
	pinned: flag,
	provider: str,
	model: str,
	message_count: num,
	token_estimate: num,
	next_seq: num,
	compaction: optional(object)
};

const MESSAGE_FIELDS: Record<string, Check> = {
	seq: num,
	id: nonEmpty,
	role: oneOf('system', 'user', 'assistant', 'tool'),
	content: str,
	status: oneOf('complete', 'streaming', 'aborted', 'error', 'incomplete'),
	kind: oneOf('message', 'summary', 'command', 'notice'),
	active: flag,
	compacted_by: nullable(str),
	created_at: num,
	tool_calls: optional(list),
	tool_call_id: optional(str),
	tokens: optional(num),
	encoding: optional(str),
	error: optional(str),
	injected: optional(list),
	model: optional(str),
	provider: optional(str)
};

function checkFields(row: Record<string, unknown>, fields: Record<string, Check>, where: string): void {
	for (const [field, [test, expected]] of Object.entries(fields)) {
		if (!test(row[field])) throw new ImportError(`The file is malformed: ${where} has “${field}” ${describe(row[field])}, expected ${expected}.`);
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
	if (!object[0](file) || !('format' in (file as object))) {
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

/**
 * The sessions of an export file, each with its messages, checked field by field. Throws an
 * ImportError saying what is wrong with a foreign, future-version, malformed or truncated file.
 * `onProgress(done, total)` is called every few sessions.
 */
export function parseExportFile(text: string, onProgress?: (done: number, total: number) => void): ExportEntry[] {
	const file = parseJson(text);
	checkHeader(file);
	const { sessions, session_count, message_count } = file;
	if (!Array.isArray(sessions)) throw new ImportError('The file is malformed: it has no list of sessions.');
	const sessionIds = new Set<string>();
	let messages = 0;
	sessions.forEach((entry: unknown, index) => {
		const where = `session ${index + 1}`;
		if (!object[0](entry) || !object[0]((entry as ExportEntry).session) || !Array.isArray((entry as ExportEntry).messages)) {
			throw new ImportError(`The file is malformed: ${where} is not a session with a list of messages.`);
		}
		const { session, messages: rows } = entry as { session: Record<string, unknown>; messages: unknown[] };
		checkFields(session, SESSION_FIELDS, where);
		const id = session.id as string;
		if (sessionIds.has(id)) throw new ImportError(`The file is malformed: session ${id} appears twice.`);
		sessionIds.add(id);
		const seqs = new Set<number>();
		for (const [at, row] of rows.entries()) {
			const rowWhere = `message ${at + 1} of session ${id}`;
			if (!object[0](row)) throw new ImportError(`The file is malformed: ${rowWhere} is not a message.`);
			const message = row as Record<string, unknown>;
			if (message.session_id !== id) throw new ImportError(`The file is malformed: ${rowWhere} belongs to ${describe(message.session_id).replace(/^= /, '')}.`);
			checkFields(message, MESSAGE_FIELDS, rowWhere);
			if (seqs.has(message.seq as number)) throw new ImportError(`The file is malformed: session ${id} has two messages at position ${message.seq}.`);
			seqs.add(message.seq as number);
		}
		messages += rows.length;
		if (onProgress && (index + 1) % 50 === 0) onProgress(index + 1, sessions.length);
	});
	if (session_count !== sessions.length || message_count !== messages) {
		throw new ImportError(
			`The file is incomplete: it says it holds ${describeCount(session_count, 'session')} and ${describeCount(message_count, 'message')}, but it has ${sessions.length} and ${messages}.`
		);
	}
	return sessions as ExportEntry[];
}

function describeCount(value: unknown, noun: string): string {
	return typeof value === 'number' ? `${value} ${noun}${value === 1 ? '' : 's'}` : `an unknown number of ${noun}s`;
}

/**
 * What an entry becomes in the receiving profile: filed under it, with a free next seq, and no
 * answer left "streaming" (nothing streams into an imported session). Everything else, parent
 * links, compacted rows, summaries and their fields, is kept as it was.
 */
export function prepareEntry(entry: ExportEntry, profile: string): ExportEntry {
	let last = -1;
	for (const row of entry.messages) last = Math.max(last, row.seq);
	const session: SessionRow = {
		...entry.session,
		profile,
		next_seq: Math.max(entry.session.next_seq, Math.floor(last) + 1),
		compaction: entry.session.compaction ?? { ...NO_COMPACTION_STATE }
	};
	const messages: MessageRow[] = entry.messages.map((row) => (row.status === 'streaming' ? { ...row, status: 'incomplete' } : row));
	return { session, messages };
}
