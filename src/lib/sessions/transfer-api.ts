// What the transfer worker serves: export and import against a profile's database, opened
// for the one call and closed after it, so reading, parsing and writing a large file never
// block the page.
import { openProfileDb } from '../db/database';
import { exportSessions, type ExportRequest } from './export-sessions';
import { fileImportId } from './file-import-id';
import { importSessions } from './import-sessions';
import type { ExportResult, ImportReport, TransferProgress } from './transfer-format';
import { checkImportSize } from './validate-import';

export type ExportCall = Omit<ExportRequest, 'onProgress' | 'now'>;

/**
 * The file's text, read in chunks so reading a large file reports how far it got: at each
 * whole percent, not at each chunk (a 50 MB file comes in some 800), since every report
 * crosses to the page.
 */
export async function readText(file: Blob, onProgress: (progress: TransferProgress) => void): Promise<string> {
	const reader = file.stream().getReader();
	const decoder = new TextDecoder('utf-8', { fatal: false });
	const parts: string[] = [];
	const step = Math.max(1, Math.floor(file.size / 100));
	let done = 0;
	let reported = 0;
	onProgress({ phase: 'reading', done, total: file.size });
	for (;;) {
		const chunk = await reader.read();
		if (chunk.done) break;
		parts.push(decoder.decode(chunk.value, { stream: true }));
		done += chunk.value.byteLength;
		if (done - reported < step && done < file.size) continue;
		reported = done;
		onProgress({ phase: 'reading', done, total: file.size });
	}
	parts.push(decoder.decode());
	return parts.join('');
}

export const transferApi = {
	async exportSessions(call: ExportCall, onProgress?: (progress: TransferProgress) => void): Promise<ExportResult> {
		const db = openProfileDb(call.profile);
		try {
			return await exportSessions(db, {
				...call,
				onProgress: (done, total) => onProgress?.({ phase: 'reading', done, total })
			});
		} finally {
			db.close();
		}
	},

	async importFile(profile: string, file: Blob, onProgress?: (progress: TransferProgress) => void): Promise<ImportReport> {
		const report = (progress: TransferProgress) => onProgress?.(progress);
		checkImportSize(file.size);
		const text = await readText(file, report);
		const db = openProfileDb(profile);
		try {
			return await importSessions(db, profile, text, report, await fileImportId(text));
		} finally {
			db.close();
		}
	}
};

export type TransferApi = typeof transferApi;
