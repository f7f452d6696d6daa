import { describe, expect, it } from 'vitest';
import type { SessionRow } from '../db/schema';
import { sessionToMarkdown } from './format-markdown';

const session = (chat_settings?: SessionRow['chat_settings']) =>
	({ id: 's1', title: 'Release notes', created_at: 0, ended_at: null, model: 'gpt-test', provider: 'p1', archived: 0, parent_session_id: null, ...(chat_settings ? { chat_settings } : {}) }) as unknown as SessionRow;

describe('sessionToMarkdown', () => {
	it('says what the chat was sent with besides its messages: its settings and its system prompt, fenced', () => {
		const markdown = sessionToMarkdown({
			session: session({ system_prompt: 'Answer in French.\n```\nnot the end', temperature: 0.2, top_p: 0.9, max_tokens: 800, reasoning_effort: 'high', compaction: 'off', tool_servers_off: ['https://tools.example.com/mcp'] }),
			messages: []
		});
		expect(markdown).toContain('*Chat settings: temperature 0.2 · top_p 0.9 · at most 800 answer tokens · reasoning effort high · compaction off · without the tool servers `https://tools.example.com/mcp`*');
		expect(markdown).toContain('### System prompt\n\n````\nAnswer in French.\n```\nnot the end\n````');
	});

	it('says nothing of settings for a chat that has none of its own', () => {
		expect(sessionToMarkdown({ session: session(), messages: [] })).not.toContain('Chat settings');
		expect(sessionToMarkdown({ session: session({ compaction: 70 }), messages: [] })).toContain('*Chat settings: compacts at 70%*');
	});
});
