// `/exit`: the session ends (end reason `exit`) and is left for good; with `--delete` it is
// then deleted as well, after the user confirmed.
import type { OperationOutcome } from './announce-removal';
import { deleteSessions } from './delete-sessions';
import { endSession, finalizeSession } from './session-lifecycle';
import type { SessionContext } from './session-context';

export async function exitSession(
	ctx: SessionContext,
	id: string,
	options: { remove?: boolean; opId?: string } = {}
): Promise<OperationOutcome | null> {
	await endSession(ctx, id, 'exit');
	await finalizeSession(ctx, id);
	return options.remove ? deleteSessions(ctx, [id], options.opId) : null;
}
