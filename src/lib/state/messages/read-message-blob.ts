// The bytes of an image or file a message shows, read from the session's stored Blobs when shown.
import { readImages } from '../../db/message-verbs';
import type { MessageRow } from '../../db/schema';
import type { Services } from '../app/services';

/** The bytes of attachment or image `id` of `message`, or null once they are gone (the session was deleted). */
export async function readMessageBlob(services: Services, message: MessageRow, id: string): Promise<Blob | null> {
	return (await readImages(services.db, message.session_id, [id])).get(id) ?? null;
}
