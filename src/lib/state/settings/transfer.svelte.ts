// Export and import for the UI: runs them in the transfer worker, shows their progress and
// outcome, downloads what was exported and remembers when the last export happened. The
// sidebar can export a selection with `exportSessions(ids, 'json')`.
import type { PalimpsestDb } from '../../db/database';
import type { SessionRow } from '../../db/schema';
import { listAllSessions } from '../../db/transfer-verbs';
import type { TransferClient } from '../../sessions/transfer-client';
import type { ExportKind, ImportReport, TransferProgress } from '../../sessions/transfer-format';
import { downloadFile } from '../shared/download-file';
import type { SettingsState } from './settings.svelte';
import { describeError } from '../shared/turn-helpers';

export interface TransferOutcome {
	ok: boolean;
	text: string;
}

export class TransferState {
	busy = $state<'export' | 'import' | null>(null);
	progress = $state<TransferProgress | null>(null);
	outcome = $state<TransferOutcome | null>(null);
	#db: PalimpsestDb;
	#settings: SettingsState;
	#profile: () => { id: string; label: string };
	#client: TransferClient | null;
	#download: typeof downloadFile;

	constructor(parts: {
		db: PalimpsestDb;
		settings: SettingsState;
		profile: () => { id: string; label: string };
		client?: TransferClient;
		download?: typeof downloadFile;
	}) {
		this.#db = parts.db;
		this.#settings = parts.settings;
		this.#profile = parts.profile;
		this.#client = parts.client ?? null;
		this.#download = parts.download ?? downloadFile;
	}

	/** The transfer worker's client and the words for what it did: loaded with the first export or import. */
	async #load(): Promise<{ transfer: TransferClient; words: typeof import('./transfer-words') }> {
		const [words, client] = await Promise.all([import('./transfer-words'), this.#client ?? import('../../sessions/transfer-client').then((m) => m.createTransferClient())]);
		this.#client = client;
		return { transfer: client, words };
	}

	/** Every session of the profile (archived ones too), most recent first, to choose from. */
	async listChoices(): Promise<SessionRow[]> {
		return (await listAllSessions(this.#db)).sort((a, b) => b.last_activity_at - a.last_activity_at);
	}

	/**
	 * Exports the sessions with these ids (each with the sessions it continues after a
	 * compaction), or all of them, and downloads the file. Resolves to whether it worked.
	 */
	async exportSessions(ids: string[] | 'all', format: ExportKind): Promise<boolean> {
		if (this.busy) return false;
		this.#begin('export');
		const { id, label } = this.#profile();
		try {
			const { transfer, words } = await this.#load();
			const { count, formatBytes, MAX_IMPORT_BYTES } = words;
			const result = await transfer.exportSessions({ profile: id, label, ids, kind: format }, (p) => (this.progress = p));
			this.#download(result.blob, result.filename);
			await this.#settings.set('export.last', { at: Date.now(), sessions: result.sessions, kind: format });
			// An export that no import takes back whole says so while the user can still split it.
			const tooLarge =
				format === 'json' && result.blob.size > MAX_IMPORT_BYTES
					? ` At ${formatBytes(result.blob.size)} it is larger than an import takes (${formatBytes(MAX_IMPORT_BYTES)}): to move these sessions to another profile or browser, export them in parts (Chosen sessions).`
					: '';
			const prompts = result.prompts ? ` and ${count(result.prompts, 'prompt')}` : '';
			this.outcome = { ok: true, text: `Exported ${count(result.sessions, 'session')} (${count(result.messages, 'message')})${prompts} as ${format === 'json' ? 'JSON' : 'Markdown'}: ${result.filename}${tooLarge}` };
			return true;
		} catch (error) {
			this.outcome = { ok: false, text: `Export failed: ${describeError(error)}` };
			return false;
		} finally {
			this.#end();
		}
	}

	/**
	 * Imports a JSON export into this profile; a refused file changes nothing, and an import that
	 * stops while writing keeps the complete sessions it added and says so.
	 */
	async importFile(file: Blob): Promise<ImportReport | null> {
		if (this.busy) return null;
		this.#begin('import');
		try {
			const { transfer, words } = await this.#load();
			const report = await transfer.importFile(this.#profile().id, file, (p) => (this.progress = p));
			this.outcome = { ok: true, text: words.describeImport(report) };
			return report;
		} catch (error) {
			const name = error instanceof Error ? error.name : '';
			// A stopped import's message says what it added; a refusal or an earlier failure added nothing.
			this.outcome =
				name === 'ImportStoppedError'
					? { ok: false, text: `Import stopped: ${(error as Error).message}` }
					: { ok: false, text: `${name === 'ImportError' ? 'Import refused' : 'Import failed'}: ${describeError(error)} Nothing was changed.` };
			return null;
		} finally {
			this.#end();
		}
	}

	#begin(kind: 'export' | 'import'): void {
		this.busy = kind;
		this.progress = null;
		this.outcome = null;
	}

	#end(): void {
		this.busy = null;
		this.progress = null;
	}
}
