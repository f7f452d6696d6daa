// What an answer that storage refused says, in its row and in the tab that keeps it: apart
// from the streaming code, so the tab's keeper of unsaved answers loads without it.
import { describeStorageError } from '../db/storage-errors';

/** What the row says when storage failed while the answer streamed, or failed to store it at all. */
export function storageFailureMessage(error: unknown, saved: boolean): string {
	const reason = describeStorageError(error);
	return saved
		? `This answer could not be stored while it was written: ${reason}. The text shown was kept; Retry to ask again.`
		: `This answer is not saved: ${reason}. It is kept in this tab only (copy it to keep it) and saved as soon as storage works again.`;
}
