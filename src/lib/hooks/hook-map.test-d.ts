import { describe, expectTypeOf, it } from 'vitest';
import { HookBus } from './hook-bus';
import type {
	CollectorHookName,
	DirectiveHookName,
	HookHandler,
	HookName,
	HookPayload,
	ObserverHookName
} from './hook-map';
import { compaction, llmCall, toolCall } from './test-fixtures';

const bus = new HookBus();

describe('the hook map as a type', () => {
	it('derives the names and their kinds', () => {
		expectTypeOf<CollectorHookName>().toEqualTypeOf<'pre_llm_call'>();
		expectTypeOf<DirectiveHookName>().toEqualTypeOf<'pre_tool_call'>();
		expectTypeOf<ObserverHookName>().toEqualTypeOf<Exclude<HookName, 'pre_llm_call' | 'pre_tool_call'>>();
		expectTypeOf<'post_compact'>().not.toExtend<HookName>();
	});

	it('types payload fields exactly', () => {
		expectTypeOf<HookPayload<'post_compaction'>['after_tokens']>().toEqualTypeOf<number | null>();
		expectTypeOf<HookPayload<'on_session_delete'>['sessions_dir']>().toEqualTypeOf<null>();
		expectTypeOf<HookPayload<'on_session_delete'>['deleted_ids']>().toEqualTypeOf<string[] | undefined>();
		// @ts-expect-error: not a hook
		expectTypeOf<HookPayload<'post_compact'>>().toBeObject();
	});

	it('rejects a wrong hook name or payload field at the call site', () => {
		// @ts-expect-error: typo in a literal hook name
		bus.register('p', 'post_compact', () => {});
		// @ts-expect-error: no such payload field
		bus.register('p', 'post_compaction', ({ compaction_kind }) => compaction_kind);
		// @ts-expect-error: a reason outside the union
		void bus.notify('post_compaction', { ...compaction, reason: 'because' });
		// @ts-expect-error: an unknown extra field
		void bus.notify('post_compaction', { ...compaction, bogus: 1 });
		// @ts-expect-error: a missing field
		void bus.notify('on_session_reset', { session_id: 's', session_key: 'k' });
		// A plain `string` (from an untyped plugin) still compiles; the runtime refuses it.
		const fromPlugin: string = 'post_compaction';
		bus.register('p', fromPlugin, () => {});
	});

	it('dispatches each hook only through the method of its kind', () => {
		// @ts-expect-error: pre_llm_call is a collector
		void bus.notify('pre_llm_call', llmCall);
		// @ts-expect-error: pre_tool_call is a directive
		void bus.notify('pre_tool_call', toolCall);
		// @ts-expect-error: observers have no results to collect
		void bus.collect('post_compaction', compaction);
		// @ts-expect-error: only pre_tool_call decides
		void bus.decide('pre_llm_call', llmCall);
		expectTypeOf(bus.collect('pre_llm_call', llmCall)).resolves.toEqualTypeOf<{ plugin_id: string; text: string; cut_from?: number }[]>();
	});

	it('types handler results by kind, and payloads as read-only', () => {
		expectTypeOf<() => string>().toExtend<HookHandler<'pre_llm_call'>>();
		expectTypeOf<() => Promise<{ context: string }>>().toExtend<HookHandler<'pre_llm_call'>>();
		expectTypeOf<() => number>().not.toExtend<HookHandler<'pre_llm_call'>>();
		expectTypeOf<() => { block: boolean; reason: string }>().toExtend<HookHandler<'pre_tool_call'>>();
		expectTypeOf<() => { block: string }>().not.toExtend<HookHandler<'pre_tool_call'>>();
		bus.register('p', 'pre_tool_call', (payload) => {
			// @ts-expect-error: payloads are frozen
			payload.args = {};
			return { args: { ...payload.args, dry_run: true } };
		});
	});
});
