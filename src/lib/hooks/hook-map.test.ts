import { describe, expect, it } from 'vitest';
import { assertHookName, HOOK_KINDS, HOOK_NAMES, isHookName } from './hook-map';

describe('hook names', () => {
	it('knows all ten hooks and their kinds', () => {
		expect(HOOK_NAMES).toHaveLength(10);
		expect(HOOK_KINDS.pre_llm_call).toBe('collector');
		expect(HOOK_KINDS.pre_tool_call).toBe('directive');
		expect(HOOK_KINDS.post_compaction).toBe('observer');
		expect(HOOK_NAMES.filter((n) => HOOK_KINDS[n] === 'observer')).toHaveLength(8);
	});

	it('recognises hook names and nothing inherited', () => {
		expect(isHookName('on_session_delete')).toBe(true);
		expect(isHookName('post_compact')).toBe(false);
		expect(isHookName('toString')).toBe(false);
		expect(isHookName(42)).toBe(false);
	});

	it('refuses an unknown name with the valid ones and a suggestion', () => {
		expect(() => assertHookName('post_compact')).toThrowError(
			/^Unknown hook "post_compact"\. Valid hooks: on_session_start, on_session_end, .*on_session_delete\. Did you mean "post_compaction"\?$/
		);
	});

	it('suggests nothing when no hook is close', () => {
		expect(() => assertHookName('banana')).toThrowError(/Valid hooks: .*on_session_delete\.$/);
		expect(() => assertHookName(undefined)).toThrowError(/^Unknown hook undefined\./);
	});
});
