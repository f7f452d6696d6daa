import { describe, expectTypeOf, it } from 'vitest';
import { HookBus } from '../hooks/hook-bus';
import { llmCall, toolCall } from '../hooks/test-fixtures';
import type { TurnHooks } from './turn-deps';

declare const hooks: TurnHooks;
const answered = { session_id: 's', user_message: 'u', assistant_response: 'a', model: 'm', usage: null };

describe('a turn’s hook calls', () => {
	it('is served by the hook bus', () => {
		expectTypeOf<HookBus>().toExtend<TurnHooks>();
	});

	it('accepts each hook through the method of its kind, with its own payload', () => {
		void hooks.collect('pre_llm_call', llmCall);
		void hooks.decide('pre_tool_call', toolCall);
		void hooks.notify('post_llm_call', answered);
		void hooks.notify('post_tool_call', { ...toolCall, result: 'ok', duration_ms: 3 });
	});

	it('rejects a misspelled hook name', () => {
		// @ts-expect-error: no such hook
		void hooks.notify('post_llm_calls', answered);
		// @ts-expect-error: no such hook
		void hooks.collect('pre_llm', llmCall);
		// @ts-expect-error: no such hook
		void hooks.decide('pre_tool', toolCall);
	});

	it('rejects a misspelled, missing or foreign payload field', () => {
		// @ts-expect-error: a misspelled field
		void hooks.notify('post_llm_call', { ...answered, assistant_reply: 'a' });
		// @ts-expect-error: a missing field
		void hooks.notify('post_tool_call', toolCall);
		// @ts-expect-error: a misspelled field
		void hooks.collect('pre_llm_call', { ...llmCall, first_turn: true });
		// @ts-expect-error: a wrong field type
		void hooks.decide('pre_tool_call', { ...toolCall, args: 'path=/a.txt' });
	});

	it('rejects a hook dispatched by the method of another kind', () => {
		// @ts-expect-error: pre_llm_call is a collector
		void hooks.notify('pre_llm_call', llmCall);
		// @ts-expect-error: pre_tool_call is a directive
		void hooks.collect('pre_tool_call', toolCall);
	});
});
