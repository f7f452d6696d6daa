// Imports an export file into a profile: the whole file is checked first, so a refused file
// changes nothing; then the sessions the profile does not have yet are added, slice by slice
// (plan-import-slices.ts), each slice one strict transaction. Imported sessions are not
// "started" here, so no lifecycle hook fires for them.
import type { PalimpsestDb } from '../db/database';
import { describeStorageError } from '../db/storage-errors';
import { writeImportedSessions } from '../db/transfer-verbs';
import { writeImportedPrompts } from '../db/prompt-verbs';
import { cutLoops } from './import-links';
import { IMPORT_SLICE_ROWS, orderParentsFirst, sliceEntries } from './plan-import-slices';
import { ImportStoppedError, type ImportReport, type TransferProgress } from './transfer-format';
import { parseExportFile, prepareEntry } from './validate-import';

export async function importSessions(
	db: PalimpsestDb,
	profile: string,
	text: string,
	onProgress: (progress: TransferProgress) => void = () => {},
	importId: string = crypto.randomUUID(),
	sliceRows = IMPORT_SLICE_ROWS
): Promise<ImportReport> {
	onProgress({ phase: 'checking', done: 0, total: 0 });
	const parsed = parseExportFile(text, (done, total) => onProgress({ phase: 'checking', done, total }));
	const { entries, loops } = cutLoops(parsed.entries);
	const slices = sliceEntries(orderParentsFirst(entries).map((entry) => prepareEntry(entry, profile, importId)), sliceRows);
	const report: ImportReport = {
		sessions_added: 0,
		messages_added: 0,
		sessions_skipped: 0,
		messages_skipped: 0,
		links_removed: 0,
		loops_removed: loops,
		fields_dropped: parsed.droppedFields,
		prompts_added: 0,
		prompts_skipped: 0,
		prompts_dropped: parsed.droppedPrompts
	};
	const total = entries.reduce((sum, entry) => sum + entry.messages.length, 0);
	let done = 0;
	onProgress({ phase: 'writing', done, total });
	for (const slice of slices) {
		let written;
		try {
			written = await writeImportedSessions(db, slice);
		} catch (error) {
			throw report.sessions_added ? stopped(report, entries.length, error) : error;
		}
		report.links_removed += written.linksCut;
		for (const entry of written.added) {
			report.sessions_added += 1;
			report.messages_added += entry.messages.length;
		}
		for (const entry of written.skipped) {
			report.sessions_skipped += 1;
			report.messages_skipped += entry.messages.length;
		}
		for (const entry of slice) done += entry.messages.length;
		onProgress({ phase: 'writing', done, total });
	}
	// Prompts last, in one transaction of their own: an import that stopped before adds them when tried again.
	if (parsed.prompts.length) {
		const written = await writeImportedPrompts(db, parsed.prompts);
		report.prompts_added = written.added;
		report.prompts_skipped = written.skipped;
	}
	return report;
}

/** What the user learns when writing stops after some slices landed: what is in, and how to add the rest. */
function stopped(report: ImportReport, sessions: number, error: unknown): ImportStoppedError {
	const count = (n: number, noun: string) => `${n.toLocaleString('en')} ${noun}${n === 1 ? '' : 's'}`;
	return new ImportStoppedError(
		`The import stopped after adding ${count(report.sessions_added, 'session')} (${count(report.messages_added, 'message')}) of the ${count(sessions, 'session')} in the file, because ${describeStorageError(error)}. Each added session is complete. Import the same file again to add the rest: sessions already here are skipped.`
	);
}
