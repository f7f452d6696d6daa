// The export offered when a profile's database cannot be opened (written by a newer version, or
// damaged): every session and message row that can still be read, as it is, in the ordinary
// JSON export format, so Import in any profile takes it back. Rows of another version are made
// importable field by field (a missing flag gets its default, an answer left streaming becomes
// incomplete); fields this version does not know are kept; messages whose session row could not
// be read get a stand-in session, so no readable text is left out.
import { profileDbName } from '../db/database';
import { readRawDatabase } from '../db/read-raw';
import { NO_COMPACTION_STATE, type MessageRow, type SessionRow } from '../db/schema';
import { isPosition } from '../db/position-clock';
import { EXPORT_FORMAT, EXPORT_VERSION, type ExportEntry, type ExportFile } from './transfer-format';

type Raw = Record<string, unknown>;

const isText = (v: unknown): v is string => typeof v === 'string';
const isNum = (v: unknown): v is number => typeof v === 'number' && Number.isFinite(v);
const text = (v: unknown, fallback = '') => (isText(v) ? v : fallback);
const num = (v: unknown, fallback = 0) => (isNum(v) ? v : fallback);
const flag = (v: unknown, fallback: 0 | 1 = 0): 0 | 1 => (v === 0 || v === 1 ? v : fallback);
const pick = <T extends string>(v: unknown, allowed: readonly T[], fallback: T): T => (allowed.includes(v as T) ? (v as T) : fallback);

function session(row: Raw, profile: string, messages: MessageRow[]): SessionRow {
	const id = row.id as string;
	const last = messages.reduce((max, m) => Math.max(max, m.created_at), 0);
	return {
		...(row as Partial<SessionRow>),
		id,
		profile,
		title: text(row.title, 'Recovered session'),
		title_source: pick(row.title_source, ['auto', 'message', 'user'] as const, 'auto'),
		session_key: text(row.session_key) || `web:${profile}:${id}`,
		created_at: num(row.created_at, messages[0]?.created_at ?? 0),
		last_activity_at: num(row.last_activity_at, last),
		ended_at: isNum(row.ended_at) ? row.ended_at : null,
		end_reason: isText(row.end_reason) ? row.end_reason : null,
		parent_session_id: isText(row.parent_session_id) && row.parent_session_id ? row.parent_session_id : null,
		parent_kind: isText(row.parent_session_id) && row.parent_session_id ? pick(row.parent_kind, ['compression', 'branch', 'delegate'] as const, 'branch') : null,
		archived: flag(row.archived),
		pinned: flag(row.pinned),
		provider: text(row.provider, 'offline'),
		model: text(row.model, 'offline-mini'),
		message_count: messages.length,
		token_estimate: num(row.token_estimate),
		next_seq: Math.max(num(row.next_seq), ...messages.map((m) => Math.floor(m.seq) + 1)),
		compaction: typeof row.compaction === 'object' && row.compaction !== null ? (row.compaction as SessionRow['compaction']) : { ...NO_COMPACTION_STATE }
	};
}

function message(row: Raw): MessageRow {
	const out: Raw = {
		...row,
		id: text(row.id) || `${row.session_id as string}:${row.seq as number}`,
		role: pick(row.role, ['system', 'user', 'assistant', 'tool'] as const, 'assistant'),
		content: isText(row.content) ? row.content : JSON.stringify(row.content ?? ''),
		// Nothing streams into a copy: an answer left streaming is kept as incomplete.
		status: pick(row.status, ['complete', 'aborted', 'error', 'incomplete'] as const, 'incomplete'),
		kind: pick(row.kind, ['message', 'summary', 'command', 'notice'] as const, 'message'),
		active: flag(row.active, 1),
		compacted_by: isText(row.compacted_by) ? row.compacted_by : null,
		created_at: num(row.created_at)
	};
	const optional: Array<[string, (v: unknown) => boolean]> = [
		['tool_calls', Array.isArray],
		['injected', Array.isArray],
		['tool_call_id', isText],
		['encoding', isText],
		['error', isText],
		['model', isText],
		['provider', isText],
		['tokens', isNum],
		// A damaged position would refuse the file on import: the import gives a new one instead.
		['position', isPosition]
	];
	for (const [field, valid] of optional) if (field in out && !valid(out[field])) delete out[field];
	return out as unknown as MessageRow;
}

export interface RescueResult {
	blob: Blob;
	filename: string;
	sessions: number;
	messages: number;
	/** What could not be read, in plain words (empty when everything was). */
	problems: string[];
}

/** Builds the file from raw rows (pure, for tests): sessions by creation, messages by position. */
export function buildRescueFile(rawSessions: unknown[], rawMessages: unknown[], profile: string, now: number): { file: ExportFile; skipped: number } {
	let skipped = 0;
	const bySession = new Map<string, MessageRow[]>();
	for (const raw of rawMessages) {
		const row = raw as Raw;
		if (!row || typeof row !== 'object' || !isText(row.session_id) || !row.session_id || !isNum(row.seq)) {
			skipped++;
			continue;
		}
		const list = bySession.get(row.session_id) ?? [];
		list.push(message(row));
		bySession.set(row.session_id, list);
	}
	const entries: ExportEntry[] = [];
	const seen = new Set<string>();
	for (const raw of rawSessions) {
		const row = raw as Raw;
		if (!row || typeof row !== 'object' || !isText(row.id) || !row.id || seen.has(row.id)) {
			skipped++;
			continue;
		}
		seen.add(row.id);
		const messages = (bySession.get(row.id) ?? []).sort((a, b) => a.seq - b.seq);
		entries.push({ session: session(row, profile, messages), messages });
	}
	for (const [id, list] of bySession) {
		if (seen.has(id)) continue;
		const messages = list.sort((a, b) => a.seq - b.seq);
		entries.push({ session: session({ id, title: 'Recovered messages' }, profile, messages), messages });
	}
	entries.sort((a, b) => a.session.created_at - b.session.created_at || (a.session.id < b.session.id ? -1 : 1));
	const file: ExportFile = {
		format: EXPORT_FORMAT,
		version: EXPORT_VERSION,
		exported_at: now,
		profile,
		session_count: entries.length,
		message_count: entries.reduce((sum, e) => sum + e.messages.length, 0),
		sessions: entries
	};
	return { file, skipped };
}

/** Reads the profile's database as it is and builds the export of what could be read. */
export async function rescueExport(profile: string, now = Date.now(), factory?: IDBFactory): Promise<RescueResult> {
	const raw = await readRawDatabase(profileDbName(profile), ['sessions', 'messages'], factory);
	const { file, skipped } = buildRescueFile(raw.rows.sessions ?? [], raw.rows.messages ?? [], profile, now);
	const problems = [...raw.problems];
	if (skipped) problems.push(`${skipped} rows were too damaged to use.`);
	const date = new Date(now).toISOString().slice(0, 10);
	return {
		blob: new Blob([JSON.stringify(file)], { type: 'application/json' }),
		filename: `palimpsest-${profile}-${date}-recovered.json`,
		sessions: file.session_count,
		messages: file.message_count,
		problems
	};
}
