// The one place a session row is built: new sessions, compaction rotation, branches and
// imports all start from here, so a new field is added once.
import { cleanTitle } from '../db/clean-title';
import { NO_COMPACTION_STATE, type AssistantRef, type ChatSettings, type ParentKind, type SessionRow } from '../db/schema';
import { nowOf, threadKey, type SessionContext } from './session-context';

export interface NewSessionOptions {
	provider: string;
	model: string;
	/** What the provider is called (see SessionRow.named_provider); none for the offline model. */
	named_provider?: SessionRow['named_provider'];
	title?: string;
	/** Keep an existing thread key (rotation, /new, /reset); a new thread otherwise. */
	session_key?: string;
	parent_session_id?: string;
	parent_kind?: ParentKind;
	/** The parent's origin, for a session that continues it (rotation); see SessionRow.import_id. */
	import_id?: string;
	/**
	 * What the chat starts with instead of the defaults (an assistant's, a branch's, a rotation's
	 * parent's), in the stored form (see readChatSettings): none, or settings with a field set.
	 */
	chat_settings?: ChatSettings;
	/** The assistant the chat is started from (its model and settings are in the options already). */
	assistant?: AssistantRef;
}

export function buildSessionRow(ctx: SessionContext, options: NewSessionOptions, id: string = crypto.randomUUID()): SessionRow {
	const now = nowOf(ctx);
	const title = options.title === undefined ? '' : cleanTitle(options.title).trim();
	const row: SessionRow = {
		id,
		profile: ctx.profile,
		title: title || 'New session',
		title_source: title ? 'user' : 'auto',
		session_key: options.session_key ?? threadKey(ctx, id),
		created_at: now,
		last_activity_at: now,
		ended_at: null,
		end_reason: null,
		parent_session_id: options.parent_session_id ?? null,
		parent_kind: options.parent_session_id ? (options.parent_kind ?? 'branch') : null,
		archived: 0,
		pinned: 0,
		provider: options.provider,
		model: options.model,
		...(options.named_provider ? { named_provider: options.named_provider } : {}),
		message_count: 0,
		token_estimate: 0,
		next_seq: 0,
		compaction: { ...NO_COMPACTION_STATE },
		...(options.import_id === undefined ? {} : { import_id: options.import_id })
	};
	return { ...row, ...(options.chat_settings ? { chat_settings: options.chat_settings } : {}), ...(options.assistant ? { assistant: { id: options.assistant.id, name: options.assistant.name } } : {}) };
}
