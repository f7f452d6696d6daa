// HookBus.fire: any hook by name, with its kind's rules, reporting every call; what "Send test
// event" and the test kit use. `only` reaches one plugin; `test` marks the log.
import { describe, expect, it } from 'vitest';
import { HookBus } from './hook-bus';
import type { HookLogEntry } from './run-hook';
import { compaction, llmCall, quietLogger, toolCall } from './test-fixtures';

function loggingBus() {
	const log: HookLogEntry[] = [];
	const bus = new HookBus({ logger: quietLogger(), record: (entry) => log.push(entry) });
	return { bus, log };
}

describe('HookBus.fire', () => {
	it('delivers a test event only to the chosen plugin and marks its log entries', async () => {
		const { bus, log } = loggingBus();
		const seen: string[] = [];
		bus.register('memory', 'post_compaction', ({ session_id }) => void seen.push(`memory ${session_id}`));
		bus.register('index', 'post_compaction', ({ session_id }) => void seen.push(`index ${session_id}`));
		const report = await bus.fire('post_compaction', { ...compaction, session_id: 'test-1' }, { only: 'memory', test: true });
		expect(seen).toEqual(['memory test-1']);
		expect(report).toMatchObject({ hook: 'post_compaction', kind: 'observer' });
		expect(report.calls).toEqual([expect.objectContaining({ plugin_id: 'memory', outcome: 'ok', test: true })]);
		expect(log).toEqual(report.calls);
	});

	it('collects and joins as pre_llm_call does, reporting the warning of an unusable return', async () => {
		const { bus } = loggingBus();
		bus.register('a', 'pre_llm_call', () => 'first');
		bus.register('b', 'pre_llm_call', () => ({ context: 42 }) as unknown as string);
		bus.register('c', 'pre_llm_call', () => ({ context: 'second' }));
		const report = await bus.fire('pre_llm_call', llmCall);
		expect(report.context).toBe('first\n\nsecond');
		expect(report.injected).toEqual([
			{ plugin_id: 'a', text: 'first' },
			{ plugin_id: 'c', text: 'second' }
		]);
		expect(report.calls.map((c) => c.outcome)).toEqual(['ok', 'warning', 'ok']);
		expect(report.calls.every((c) => c.test === undefined)).toBe(true);
	});

	it('decides as pre_tool_call does', async () => {
		const { bus } = loggingBus();
		bus.register('rewrite', 'pre_tool_call', ({ args }) => ({ args: { ...args, limit: 1 } }));
		bus.register('guard', 'pre_tool_call', ({ args }) => (args.limit ? { block: true, reason: 'limited' } : undefined));
		const report = await bus.fire('pre_tool_call', toolCall);
		expect(report.decision).toEqual({ block: true, reason: 'limited', plugin_id: 'guard' });
	});

	it('refuses an unknown hook name with the app’s suggestion', async () => {
		const { bus } = loggingBus();
		await expect(bus.fire('post_compact', {})).rejects.toThrow(/Unknown hook "post_compact"\..*Did you mean "post_compaction"\?/);
	});

	it('refuses a plugin that has no callback for the hook, and a payload that is not plain data', async () => {
		const { bus } = loggingBus();
		bus.register('memory', 'post_compaction', () => {});
		await expect(bus.fire('pre_llm_call', llmCall, { only: 'memory' })).rejects.toThrow('Plugin "memory" has no pre_llm_call callback.');
		await expect(bus.fire('post_compaction', { ...compaction, kind: () => 1 })).rejects.toThrow(/payload is not plain data/);
	});

	it('records an event nobody listens to once, as the app does', async () => {
		const { bus, log } = loggingBus();
		const report = await bus.fire('on_session_delete', { session_id: 's', reason: 'delete', profile: 'default', sessions_dir: null });
		expect(report.calls).toEqual([expect.objectContaining({ hook: 'on_session_delete', plugin_id: '', outcome: 'unheard' })]);
		expect(log).toHaveLength(1);
	});
});
