// "Show full result" on a tool output pruned to save context: the result it stands for, as it came.
import { readPrunedOriginal } from '../../db/message-verbs';
import type { MessageRow } from '../../db/schema';
import type { Services } from '../app/services';

/** The stored result the pruned stub `stub` stands for, or null when it is gone. */
export function readPrunedResult(services: Services, stub: MessageRow): Promise<MessageRow | null> {
	return readPrunedOriginal(services.db, stub);
}
