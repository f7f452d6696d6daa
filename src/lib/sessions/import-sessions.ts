// Imports an export file into a profile: the whole file is checked first, then one transaction
// adds the sessions the profile does not have yet. A refused or failed import changes nothing.
// Imported sessions are not "started" here, so no lifecycle hook fires for them.
import type { PalimpsestDb } from '../db/database';
import { writeImportedSessions } from '../db/transfer-verbs';
import type { ImportReport, TransferProgress } from './transfer-format';
import { parseExportFile, prepareEntry } from './validate-import';

export async function importSessions(
	db: PalimpsestDb,
	profile: string,
	text: string,
	onProgress: (progress: TransferProgress) => void = () => {}
): Promise<ImportReport> {
	onProgress({ phase: 'checking', done: 0, total: 0 });
	const entries = parseExportFile(text, (done, total) => onProgress({ phase: 'checking', done, total }));
	const prepared = entries.map((entry) => prepareEntry(entry, profile));
	const { added, skipped } = await writeImportedSessions(db, prepared, (done, total) =>
		onProgress({ phase: 'writing', done, total })
	);
	const count = (list: typeof added) => list.reduce((sum, e) => sum + e.messages.length, 0);
	return {
		sessions_added: added.length,
		messages_added: count(added),
		sessions_skipped: skipped.length,
		messages_skipped: count(skipped)
	};
}
