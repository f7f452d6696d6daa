// The session export file: its name, version and shape, and what an import reports. A file of
// another format, or of a later version than this app reads, is refused before anything is written.
import type { MessageRow, PromptRow, SessionRow } from '../db/schema';

export const EXPORT_FORMAT = 'palimpsest-sessions';
/** Raise on any change an older app could misread; older versions stay importable. */
export const EXPORT_VERSION = 1;

/**
 * The largest file an import reads. An import holds the file's text, then every row in it,
 * while it writes them slice by slice. Measured in Chromium on two cores when it wrote them all
 * in one transaction: 100 MB took two minutes and 340 MB more memory; 464 MB took 1.2 GB more
 * memory; from 512 MB on, the text no longer fits in one JavaScript string. A larger export is
 * moved in parts (Chosen sessions).
 */
export const MAX_IMPORT_BYTES = 256 * 1024 * 1024;

/** "300 MB", "1.5 MB", "12 KB". */
export function formatBytes(bytes: number): string {
	const mb = bytes / (1024 * 1024);
	if (mb >= 10) return `${Math.round(mb)} MB`;
	if (mb >= 1) return `${Math.round(mb * 10) / 10} MB`;
	return `${Math.max(1, Math.round(bytes / 1024))} KB`;
}

export type ExportKind = 'json' | 'markdown';

/** One session with every message row it has, compacted (inactive) rows and summaries included. */
export interface ExportEntry {
	session: SessionRow;
	messages: MessageRow[];
	/** The images its messages show (a tool's result), their bytes as base64; absent when none. */
	images?: Array<{ id: string; type: string; data: string }>;
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
	/** The profile's saved prompts (in an export of every session; absent from older files and other exports). */
	prompts?: PromptRow[];
	sessions: ExportEntry[];
}

export interface ExportResult {
	blob: Blob;
	filename: string;
	sessions: number;
	messages: number;
	/** Saved prompts in the file. */
	prompts: number;
}

export interface ImportReport {
	sessions_added: number;
	messages_added: number;
	/** Sessions whose id this profile already has: kept as they are here, with all their messages. */
	sessions_skipped: number;
	messages_skipped: number;
	/**
	 * Links of the added sessions to sessions this import did not write (outside the file, or
	 * already in the profile from elsewhere), cut: an import may only link its own sessions.
	 */
	links_removed: number;
	/** Parent links that led round in a loop, cut. */
	loops_removed: number;
	/** Fields this app does not know, left out. */
	fields_dropped: number;
	prompts_added: number;
	/** Prompts whose id or name this profile has already (kept as they are here), or past the most a profile keeps. */
	prompts_skipped: number;
	/** Entries of the file's prompts that are not a prompt this app keeps (a bad field, too long, a command's name), left out. */
	prompts_dropped: number;
}

export interface TransferProgress {
	phase: 'reading' | 'checking' | 'writing';
	done: number;
	total: number;
}

/** A file that cannot be imported; the message says why, for the user. Nothing was written. */
export class ImportError extends Error {
	constructor(message: string) {
		super(message);
		this.name = 'ImportError';
	}
}

/**
 * Writing stopped after some slices landed (a full disk, a closed connection): the message says
 * what was added, each added session complete, and that importing the file again adds the rest.
 */
export class ImportStoppedError extends Error {
	constructor(message: string) {
		super(message);
		this.name = 'ImportStoppedError';
	}
}
