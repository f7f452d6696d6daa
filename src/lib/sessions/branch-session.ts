// "Branch from here": a new session (parent_kind `branch`) holding a copy of the history up to
// a message, so the user can take the conversation another way and keep the original.
import { insertSessionWithMessages, readMessagesWithFrames } from '../db/copy-verbs';
import type { MessageRow } from '../db/schema';
import { getSession } from '../db/session-verbs';
import { buildSessionRow } from './build-session-row';
import { nowOf, type SessionContext } from './session-context';
import type { SessionRow } from '../db/schema';

/**
 * The rows a branch at `seq` copies: everything up to it (other versions left out), plus the tool results that answer
 * tool calls made up to it (a call is never copied without its result).
 */
export function rowsThrough(rows: MessageRow[], seq: number): MessageRow[] {
	// The version on show only: other versions of an edited message stay in the source.
	const kept = rows.filter((row) => row.seq <= seq && !row.shelved);
	const calls = new Set(kept.flatMap((row) => row.tool_calls?.map((call) => call.id) ?? []));
	const results = rows.filter((row) => row.seq > seq && row.role === 'tool' && row.tool_call_id !== undefined && calls.has(row.tool_call_id));
	return [...kept, ...results];
}

/** Creates the branch and announces it with `on_session_start` once it has committed. */
export async function branchSession(ctx: SessionContext, sourceId: string, seq: number): Promise<SessionRow> {
	const source = await getSession(ctx.db, sourceId);
	if (!source) throw new Error('This session no longer exists.');
	const { messages: history, frames, images } = await readMessagesWithFrames(ctx.db, sourceId);
	const copied = rowsThrough(history, seq);
	if (!copied.some((row) => row.seq === seq)) throw new Error('That message no longer exists.');
	const row = buildSessionRow(ctx, {
		provider: source.provider,
		model: source.model,
		named_provider: source.named_provider,
		title: `${source.title} (branch)`,
		parent_session_id: source.id,
		parent_kind: 'branch',
		// A branch takes the conversation another way, with the settings it had.
		chat_settings: source.chat_settings
	});
	// New message ids (ids are unique across sessions); compaction links follow the summaries.
	const ids = new Map(copied.map((m) => [m.id, crypto.randomUUID()]));
	const messages: MessageRow[] = copied.map((m) => ({
		...m,
		session_id: row.id,
		id: ids.get(m.id)!,
		compacted_by: m.compacted_by === null ? null : (ids.get(m.compacted_by) ?? m.compacted_by),
		status: m.status === 'streaming' ? 'incomplete' : m.status
	}));
	const last = messages.at(-1);
	const branch: SessionRow = {
		...row,
		message_count: messages.length,
		next_seq: last ? Math.floor(Math.max(...messages.map((m) => m.seq))) + 1 : 0,
		last_activity_at: nowOf(ctx)
	};
	await insertSessionWithMessages(ctx.db, branch, messages, frames, images, nowOf(ctx));
	void ctx.hooks?.notify('on_session_start', {
		session_id: branch.id,
		session_key: branch.session_key,
		platform: ctx.platform,
		profile: ctx.profile,
		model: branch.model
	});
	return branch;
}
