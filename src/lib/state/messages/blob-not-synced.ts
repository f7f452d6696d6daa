// What the transcript says in place of an image that sync did not bring to this device, and why.
import { formatBytes } from '../../hooks/plain-data';
import type { MessageRow } from '../../db/schema';

/** The note for Blob `id` of `message`, or null when sync did not leave it behind. */
export function describeBlobNotSynced(message: MessageRow, id: string): string | null {
	const entry = message.blobs_not_synced?.find((each) => each.id === id);
	if (!entry) return null;
	const size = formatBytes(entry.size);
	switch (entry.reason) {
		case 'sender-limit':
			return `not synced: it is ${size}, larger than the ${formatBytes(entry.limit ?? 0)} limit for synced attachments on the device it was made on (Settings → Sync there).`;
		case 'own-limit':
			return `not synced: it is ${size}, larger than this device's ${formatBytes(entry.limit ?? 0)} limit for synced attachments (Settings → Sync).`;
		case 'refused':
			return 'not synced: the sync server sent bytes that are not what the message says.';
		case 'arriving':
			return 'not here yet: it is still on its way from the device it was made on.';
	}
}
