// Sample payloads shared by the hook tests (test-only; nothing in the app imports this).
import type { HookPayload } from './hook-map';

export const compaction: HookPayload<'post_compaction'> = {
	session_id: 's1',
	old_session_id: '',
	kind: 'summarize',
	reason: 'manual',
	before_tokens: 1200,
	after_tokens: 300,
	messages_removed: 8,
	profile: 'default',
	platform: 'web',
	facts_total: 5,
	facts_kept: 4,
	facts_lost: ['port 5432']
};

export const llmCall: HookPayload<'pre_llm_call'> = {
	session_id: 's1',
	session_key: 'web:default:s1',
	user_message: 'hello',
	conversation_history: [{ role: 'user', content: 'earlier' }],
	is_first_turn: false,
	model: 'offline',
	platform: 'web',
	profile: 'default'
};

export const toolCall: HookPayload<'pre_tool_call'> = {
	session_id: 's1',
	tool_name: 'read_file',
	args: { path: '/a.txt' }
};

/** A logger that keeps messages instead of printing them. */
export function quietLogger() {
	const messages: string[] = [];
	return { messages, warn: (message: string) => void messages.push(message) };
}
