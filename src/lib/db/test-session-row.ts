// For tests: a complete session row as the app stores it, with `extra` fields over the defaults.
import { NO_COMPACTION_STATE, type SessionRow } from './schema';

export function testSessionRow(id: string, extra: Partial<SessionRow> = {}): SessionRow {
	return {
		id,
		profile: 'default',
		title: 'New session',
		title_source: 'auto',
		session_key: `web:default:${id}`,
		created_at: 1,
		last_activity_at: 1,
		ended_at: null,
		end_reason: null,
		parent_session_id: null,
		parent_kind: null,
		archived: 0,
		pinned: 0,
		provider: 'offline',
		model: 'offline-mini',
		message_count: 0,
		token_estimate: 0,
		next_seq: 0,
		compaction: { ...NO_COMPACTION_STATE },
		...extra
	};
}
