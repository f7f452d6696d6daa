// Imports an export file into a profile: the whole file is checked first, then one transaction
// adds the sessions the profile does not have yet. A refused or failed import changes nothing.
// Imported sessions are not "started" here, so no lifecycle hook fires for them.
import type { PalimpsestDb } from '../db/database';
import { writeImportedSessions } from '../db/transfer-verbs';
import { cutForeignLinks } from './import-links';
import type { ImportReport, TransferProgress } from './transfer-format';
import { parseExportFile, prepareEntry } from './validate-import';

export async function importSessions(
	db: PalimpsestDb,
	profile: string,
	text: string,
	onProgress: (progress: TransferProgress) => void = () => {},
	importId: string = crypto.randomUUID()
): Promise<ImportReport> {
	onProgress({ phase: 'checking', done: 0, total: 0 });
	const parsed = parseExportFile(text, (done, total) => onProgress({ phase: 'checking', done, total }));
	const { entries, cuts } = cutForeignLinks(parsed.entries);
	const prepared = entries.map((entry) => prepareEntry(entry, profile, importId));
	const { added, skipped } = await writeImportedSessions(db, prepared, (done, total) =>
		onProgress({ phase: 'writing', done, total })
	);
	const count = (list: typeof added) => list.reduce((sum, e) => sum + e.messages.length, 0);
	return {
		sessions_added: added.length,
		messages_added: count(added),
		sessions_skipped: skipped.length,
		messages_skipped: count(skipped),
		links_removed: cuts.outside,
		loops_removed: cuts.loops,
		fields_dropped: parsed.droppedFields
	};
}
