// A session document as sync kept it before format 2 (a deletion with no clock that nothing
// undid), read into today's shape, as read-document.ts reads one from the server.
import { ZERO_CLOCK } from './clock';
import { LATER_FIELDS, ROW_FIELDS, type ClockedField, type SessionDoc } from './session-document';

interface LegacySessionDoc {
	session_id: string;
	created_at: number;
	last_activity_at: number;
	deleted_at: number | null;
	fields: Omit<SessionDoc['fields'], 'deleted_at' | 'provider_ref' | 'chat_settings' | 'assistant'>;
	clocks: Record<Exclude<ClockedField, 'deleted_at' | 'provider_ref' | 'chat_settings' | 'assistant'>, string>;
}

export function legacySessionDoc(value: unknown): SessionDoc {
	const old = value as LegacySessionDoc;
	let latest = ZERO_CLOCK;
	for (const field of ROW_FIELDS) if (!Object.hasOwn(LATER_FIELDS, field) && old.clocks[field as keyof LegacySessionDoc['clocks']] > latest) latest = old.clocks[field as keyof LegacySessionDoc['clocks']];
	return {
		session_id: old.session_id,
		created_at: old.created_at,
		last_activity_at: old.last_activity_at,
		fields: { ...old.fields, chat_settings: null, assistant: null, deleted_at: old.deleted_at, provider_ref: null },
		clocks: { ...old.clocks, chat_settings: ZERO_CLOCK, assistant: ZERO_CLOCK, deleted_at: old.deleted_at === null ? ZERO_CLOCK : latest, provider_ref: ZERO_CLOCK },
		shown: {},
		purged_at: null
	};
}
