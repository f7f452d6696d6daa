// A complete, made-up payload for every hook, with every documented field: what "Send test
// event" prefills and what a test kit fills in around the fields a test names. The compiler
// keeps it complete and correctly typed for every hook in HookMap.
import type { HookName, HookPayload } from './hook-map';

/** The session id a test kit uses when a test names none. */
export const TEST_SESSION_ID = 'test-session';

/** A made-up session id that no real session has (real ids are UUIDs). */
export function makeTestSessionId(): string {
	return `test-${Math.random().toString(16).slice(2, 10)}`;
}

type Samples = { [N in HookName]: (session_id: string) => HookPayload<N> };

const key = (session_id: string) => `web:default:${session_id}`;

const SAMPLES: Samples = {
	on_session_start: (session_id) => ({ session_id, session_key: key(session_id), platform: 'web', profile: 'default', model: 'offline-mini' }),
	on_session_end: (session_id) => ({ session_id, session_key: key(session_id), end_reason: 'new_session', platform: 'web' }),
	on_session_finalize: (session_id) => ({ session_id, session_key: key(session_id), platform: 'web' }),
	on_session_reset: (session_id) => ({ session_id, old_session_id: `${session_id}-before`, session_key: key(session_id) }),
	pre_llm_call: (session_id) => ({
		session_id,
		session_key: key(session_id),
		user_message: 'What did we decide about the release date?',
		conversation_history: [
			{ role: 'user', content: 'Let us plan the release.', attachments: [{ type: 'file', name: 'roadmap.md', size: 2_048 }] },
			{ role: 'assistant', content: 'Sure: what date are you aiming for?' }
		],
		is_first_turn: false,
		model: 'offline-mini',
		platform: 'web',
		profile: 'default'
	}),
	post_llm_call: (session_id) => ({
		session_id,
		user_message: 'What did we decide about the release date?',
		assistant_response: 'You settled on the first Monday of next month.',
		model: 'offline-mini',
		usage: { input_tokens: 1200, output_tokens: 40, total_tokens: 1240 }
	}),
	pre_tool_call: (session_id) => ({ session_id, tool_name: 'read_file', args: { path: 'notes/release.md' } }),
	post_tool_call: (session_id) => ({
		session_id,
		tool_name: 'read_file',
		args: { path: 'notes/release.md' },
		result: 'Release: first Monday of next month.',
		duration_ms: 12
	}),
	post_compaction: (session_id) => ({
		session_id,
		old_session_id: '',
		kind: 'summarize',
		reason: 'manual',
		before_tokens: 90_000,
		after_tokens: 12_000,
		messages_removed: 40,
		profile: 'default',
		platform: 'web',
		facts_total: 23,
		facts_kept: 21,
		facts_lost: ['src/billing/ledger.ts', 'Never change the public API of the billing module.']
	}),
	// `deleted_ids` is left out: the app sends it only when more than one session went.
	on_session_delete: (session_id) => ({ session_id, reason: 'delete', profile: 'default', sessions_dir: null })
};

/** Fields a hook's payload may carry that its sample leaves out: field → its type and when it appears. */
export const OPTIONAL_FIELDS: Partial<Record<HookName, Record<string, string>>> = {
	on_session_delete: { deleted_ids: 'string[]: every removed session, present only when more than one went' },
	pre_tool_call: { server: 'string: the tool server (MCP) the tool comes from, present only for a tool server’s tool' },
	post_tool_call: { server: 'string: the tool server (MCP) the tool comes from, present only for a tool server’s tool' }
};

/** Every documented field of `name`'s payload, made up, for `session_id`. */
export function samplePayload<N extends HookName>(name: N, session_id: string = TEST_SESSION_ID): HookPayload<N> {
	return (SAMPLES[name] as (id: string) => HookPayload<N>)(session_id);
}
