// When a session's model changes. A provider's compaction items go back only to the provider
// and model family that made them, so items the new model cannot read are replaced first by a
// summary written here (kind `summarize`, reason `unknown`); and a conversation that no longer
// fits the new model's window is compacted now, not at the next send (unless the chat's
// compaction is off).
import { listActiveMessages } from '../db/compaction-verbs';
import { estimateSession } from '../context/estimate-session';
import { canReplay } from '../providers/native-family';
import { compactSession } from './compact-session';
import type { CompactionDeps, CompactionOutcome } from './compaction-types';

/** `deps` are those of the session with its new model. Null when nothing needed doing. */
export async function compactForModel(deps: CompactionDeps, sessionId: string, signal?: AbortSignal): Promise<CompactionOutcome | null> {
	const rows = await listActiveMessages(deps.db, sessionId);
	if (rows.some((row) => row.native && !canReplay(row.native, deps.provider.nativeApi, deps.model, deps.provider.id))) {
		return compactSession(deps, { sessionId, reason: 'unknown', kind: 'summarize', replaceNative: true, signal });
	}
	// A chat whose compaction is off asks when it is full, at its next message.
	if (!deps.settings.automatic) return null;
	const estimate = await estimateSession(deps.db, deps.counter, sessionId, deps.model, deps.request);
	if (estimate && estimate.total > deps.settings.threshold * deps.windowTokens) return compactSession(deps, { sessionId, reason: 'unknown', signal });
	return null;
}
