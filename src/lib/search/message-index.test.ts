import { describe, expect, it } from 'vitest';
import type { MessageRow, SessionRow } from '../db/schema';
import { MessageIndex } from './message-index';
import { makeSnippet } from './snippet';
import { testPosition } from '../db/test-position';

function session(id: string, title: string, last_activity_at = 1): SessionRow {
	return {
		id, profile: 'p', title, title_source: 'user', session_key: id, created_at: 1, last_activity_at, ended_at: null, end_reason: null,
		parent_session_id: null, parent_kind: null, archived: 0, pinned: 0, provider: 'x', model: 'y', message_count: 0, token_estimate: 0,
		next_seq: 0, compaction: { failures: 0, cooldown_until: 0, turns_since_micro: 0 }
	};
}
function message(session_id: string, seq: number, content: string, kind: MessageRow['kind'] = 'message'): MessageRow {
	return { session_id, seq, position: testPosition(seq), id: `${session_id}${seq}`, role: 'assistant', content, status: 'complete', kind, active: 1, compacted_by: null, created_at: 1 };
}

function indexOf(): MessageIndex {
	const index = new MessageIndex();
	index.setSession(session('en', 'Trip notes', 10), [message('en', 0, 'The Café near the zeppelin hangar'), message('en', 1, 'run `cargo build --release`', 'command')]);
	index.setSession(session('zh', '笔记', 20), [message('zh', 0, '我们讨论了全文搜索引擎的设计')]);
	index.setSession(session('ja', 'メモ', 5), [message('ja', 0, '日本語の検索もできます'), message('ja', 1, 'compaction notice zeppelin', 'notice')]);
	return index;
}
const ids = (index: MessageIndex, query: string) => index.search(query, 30).map((hit) => hit.sessionId);

describe('the message index', () => {
	it('matches prefixes as the user types, with accents folded', () => {
		const index = indexOf();
		expect(ids(index, 'zepp')).toEqual(['en']);
		expect(ids(index, 'CAFE')).toEqual(['en']);
		expect(ids(index, 'café zepp')).toEqual(['en']);
		expect(ids(index, 'cargo rel')).toEqual(['en']);
		expect(index.search('zepp')[0]).toMatchObject({ seq: 0, terms: ['zeppelin'] });
	});

	it('finds Chinese and Japanese text by any two consecutive characters', () => {
		const index = indexOf();
		expect(ids(index, '搜索')).toEqual(['zh']);
		expect(ids(index, '索引擎')).toEqual(['zh']);
		expect(ids(index, '検索')).toEqual(['ja']);
		expect(ids(index, '搜')).toEqual(['zh']);
		const hit = index.search('引擎')[0];
		expect(makeSnippet('我们讨论了全文搜索引擎的设计', new Set(hit.terms))).toEqual({ text: '我们讨论了全文搜索引擎的设计', marks: [[9, 11]] });
	});

	it('leaves notices out and ranks a title match and a recent session first', () => {
		const index = indexOf();
		index.setSession(session('old', 'Old', 0), [message('old', 0, 'notes about notes')]);
		expect(ids(index, 'notes')).toEqual(['en', 'old']);
		expect(ids(index, 'notice')).toEqual([]);
	});

	it('replaces a session whole, takes rows and sessions out, and survives a round trip', () => {
		const index = indexOf();
		index.setSession(session('en', 'Trip notes', 10), [message('en', 2, 'only airships now')]);
		expect(ids(index, 'zeppelin')).toEqual([]);
		expect(ids(index, 'airship')).toEqual(['en']);
		index.removeMessage('en', 2);
		expect(ids(index, 'airship')).toEqual([]);
		index.removeSession('zh');
		expect(ids(index, '搜索')).toEqual([]);
		const copy = MessageIndex.parse(index.serialize());
		expect(ids(copy, 'trip')).toEqual(['en']);
		expect(ids(copy, '検索')).toEqual(['ja']);
		expect(copy.messageSeqs('ja')).toEqual([0]);
		expect(() => MessageIndex.parse('{"format":0}')).toThrow();
	});
});
