import { describe, expect, it } from 'vitest';
import { showArguments, toolCallStatus } from './tool-call-status';
import { indexToolCalls } from './tool-call-index';
import type { MessageRow } from '../shared/view-types';

const row = (fields: Partial<MessageRow>): MessageRow =>
	({ session_id: 's', seq: 1, id: 'm', role: 'tool', content: '', status: 'complete', kind: 'message', created_at: 0, ...fields }) as MessageRow;

describe('the status a tool-call row shows', () => {
	it('is running without a result while a turn runs, and "not run" when none does', () => {
		expect(toolCallStatus(undefined, true)).toBe('running');
		expect(toolCallStatus(undefined, false)).toBe('not run');
	});

	it('reads the result: stopped, denied by you, blocked by a plugin, failed, done', () => {
		expect(toolCallStatus(row({ status: 'aborted', content: 'Tool call stopped while it ran.' }), false)).toBe('stopped');
		expect(toolCallStatus(row({ content: 'The user denied this tool call.', tool_result: { server: 'x', is_error: true, parts: [] } }), false)).toBe('denied');
		expect(toolCallStatus(row({ content: 'Tool call blocked: not today.' }), false)).toBe('blocked');
		expect(toolCallStatus(row({ content: 'Tool error: the server went away' }), false)).toBe('failed');
		expect(toolCallStatus(row({ content: '[The plugin "P" changed the arguments of this call; the tool ran with {"a":1}]\n\nTool error: boom' }), false)).toBe('failed');
		expect(toolCallStatus(row({ content: 'No such file', tool_result: { server: 'x', is_error: true, parts: [] } }), false)).toBe('failed');
		expect(toolCallStatus(row({ content: 'The sum of 2 and 3 is 5.' }), true)).toBe('done');
		// A tool's own words that merely mention an error are its result.
		expect(toolCallStatus(row({ content: 'Found 3 lines with "Tool error:" in them.' }), false)).toBe('done');
	});
});

describe('a call’s arguments in its row', () => {
	it('are indented JSON, or the model’s text as it came when it is not JSON', () => {
		expect(showArguments('{"a":2,"b":3}')).toBe('{\n  "a": 2,\n  "b": 3\n}');
		expect(showArguments('{"a": 2,')).toBe('{"a": 2,');
		expect(showArguments('')).toBe('');
	});
});

describe('the calls among the transcript’s rows', () => {
	it('pairs each result with the call of its id in the answer before it, also when every answer reuses the id', () => {
		const answer = (seq: number, args: string) => row({ seq, role: 'assistant', tool_calls: [{ id: 'call_1', name: 'echo', arguments: args }, { id: 'call_2', name: 'add', arguments: '{}' }] });
		const index = indexToolCalls([
			answer(1, '{"message":"first"}'),
			row({ seq: 2, tool_call_id: 'call_1', content: 'first' }),
			row({ seq: 3, role: 'user', content: 'again' }),
			answer(4, '{"message":"second"}'),
			row({ seq: 5, tool_call_id: 'call_1', content: 'second' })
		]);
		expect(index.results.get(2)?.call.arguments).toBe('{"message":"first"}');
		expect(index.results.get(5)?.call.arguments).toBe('{"message":"second"}');
		expect(index.results.get(5)?.key).toBe('s/4/call_1');
		// The second answer's other call has no result yet; nor has the first's.
		expect([...index.answered].sort()).toEqual(['s/1/call_1', 's/4/call_1']);
	});
});
