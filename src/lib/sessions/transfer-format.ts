// The session export file: its name, version and shape, and what an import reports. A file of
// another format, or of a later version than this app reads, is refused before anything is written.
import type { MessageRow, SessionRow } from '../db/schema';

export const EXPORT_FORMAT = 'palimpsest-sessions';
/** Raise on any change an older app could misread; older versions stay importable. */
export const EXPORT_VERSION = 1;

export type ExportKind = 'json' | 'markdown';

/** One session with every message row it has, compacted (inactive) rows and summaries included. */
export interface ExportEntry {
	session: SessionRow;
	messages: MessageRow[];
}

/** The JSON file. The counts let an import tell a complete file from one that lost entries. */
export interface ExportFile {
	format: typeof EXPORT_FORMAT;
	version: number;
	exported_at: number;
	/** The profile id the sessions came from (imports file them under the receiving profile). */
	profile: string;
	session_count: number;
	message_count: number;
	sessions: ExportEntry[];
}

export interface ExportResult {
	blob: Blob;
	filename: string;
	sessions: number;
	messages: number;
}

export interface ImportReport {
	sessions_added: number;
	messages_added: number;
	/** Sessions whose id this profile already has: kept as they are here, with all their messages. */
	sessions_skipped: number;
	messages_skipped: number;
	/** Links to sessions outside the file, cut (an import may only link its own sessions). */
	links_removed: number;
	/** Parent links that led round in a loop, cut. */
	loops_removed: number;
	/** Fields this app does not know, left out. */
	fields_dropped: number;
}

export interface TransferProgress {
	phase: 'reading' | 'checking' | 'writing';
	done: number;
	total: number;
}

/** A file that cannot be imported; the message says why, for the user. */
export class ImportError extends Error {
	constructor(message: string) {
		super(message);
		this.name = 'ImportError';
	}
}
