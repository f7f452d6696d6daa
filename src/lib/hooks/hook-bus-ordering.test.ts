import { afterEach, describe, expect, it, vi } from 'vitest';
import { HookBus } from './hook-bus';
import type { HookLogEntry } from './run-hook';
import { CATCH_UP_LIMIT_WITHOUT_TIMEOUT_MS } from './timeouts';
import { compaction, llmCall, quietLogger, toolCall } from './test-fixtures';

function makeBus(timeoutSeconds = 30) {
	const log: HookLogEntry[] = [];
	const bus = new HookBus({ record: (e) => log.push(e), logger: quietLogger(), timeoutSeconds: () => timeoutSeconds });
	return { bus, log };
}

const later = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

afterEach(() => vi.useRealTimers());

describe('collectors and directives after queued observer events', () => {
	it('lets pre_llm_call see what the same plugin did in the post_compaction raised just before', async () => {
		const { bus } = makeBus();
		const marked = new Set<string>();
		bus.register('memory', 'post_compaction', async ({ session_id }) => {
			await later(5);
			marked.add(session_id);
		});
		bus.register('memory', 'pre_llm_call', ({ session_id }) => (marked.has(session_id) ? 'remember the notes' : undefined));

		// The app does not await observers: the turn starts right after the event is raised.
		void bus.notify('post_compaction', compaction);
		expect(await bus.collect('pre_llm_call', llmCall)).toEqual([{ plugin_id: 'memory', text: 'remember the notes' }]);
	});

	it('lets pre_tool_call see what the same plugin did in an earlier post_tool_call', async () => {
		const { bus } = makeBus();
		let calls = 0;
		bus.register('quota', 'post_tool_call', async () => {
			await later(5);
			calls++;
		});
		bus.register('quota', 'pre_tool_call', () => (calls >= 1 ? { block: true, reason: 'one tool call per turn' } : undefined));

		void bus.notify('post_tool_call', { ...toolCall, result: 'ok', duration_ms: 1 });
		expect(await bus.decide('pre_tool_call', toolCall)).toEqual({ block: true, reason: 'one tool call per turn', plugin_id: 'quota' });
	});

	it('waits for a failing or timed-out observer only until it has failed', async () => {
		vi.useFakeTimers();
		const { bus } = makeBus(1);
		bus.register('p', 'post_compaction', () => {
			throw new Error('boom');
		});
		bus.register('p', 'post_compaction', () => new Promise(() => {}));
		bus.register('p', 'pre_llm_call', () => 'still here');
		void bus.notify('post_compaction', compaction);
		let result: unknown;
		void bus.collect('pre_llm_call', llmCall).then((r) => (result = r));
		await vi.advanceTimersByTimeAsync(999);
		expect(result).toBeUndefined();
		await vi.advanceTimersByTimeAsync(1);
		expect(result).toEqual([{ plugin_id: 'p', text: 'still here' }]);
	});

	it('does not delay a plugin with no queued events behind another plugin’s slow observer', async () => {
		vi.useFakeTimers();
		const { bus } = makeBus();
		bus.register('slow', 'post_compaction', () => later(20_000));
		bus.register('slow', 'pre_llm_call', () => 'slow, caught up');
		bus.register('fast', 'pre_llm_call', () => 'fast');
		bus.register('guard', 'pre_tool_call', () => undefined);
		bus.setPluginOrder(['fast', 'guard', 'slow']);

		void bus.notify('post_compaction', compaction);
		let collected: unknown;
		void bus.collect('pre_llm_call', llmCall).then((r) => (collected = r));
		let decided: unknown;
		void bus.decide('pre_tool_call', toolCall).then((r) => (decided = r));
		await vi.advanceTimersByTimeAsync(0);
		expect(decided).toEqual({ block: false });
		expect(collected).toBeUndefined();

		await vi.advanceTimersByTimeAsync(20_000);
		expect(collected).toEqual([
			{ plugin_id: 'fast', text: 'fast' },
			{ plugin_id: 'slow', text: 'slow, caught up' }
		]);
		await expect(bus.settled()).resolves.toBeUndefined();
	});

	it('releases a plugin once its own callbacks for the event ran, not after the whole event', async () => {
		vi.useFakeTimers();
		const { bus } = makeBus();
		const seen: string[] = [];
		bus.register('first', 'post_compaction', () => void seen.push('first saw it'));
		bus.register('first', 'pre_llm_call', () => seen.join(', '));
		bus.register('second', 'post_compaction', () => later(20_000));
		void bus.notify('post_compaction', compaction);
		let collected: unknown;
		void bus.collect('pre_llm_call', llmCall).then((r) => (collected = r));
		await vi.advanceTimersByTimeAsync(0);
		expect(collected).toEqual([{ plugin_id: 'first', text: 'first saw it' }]);
	});

	it('does not call a plugin unregistered while its collector was waiting', async () => {
		const { bus } = makeBus();
		let called = false;
		bus.register('gone', 'post_compaction', () => later(5));
		bus.register('gone', 'pre_tool_call', () => {
			called = true;
			return { block: true };
		});
		void bus.notify('post_compaction', compaction);
		const decision = bus.decide('pre_tool_call', toolCall);
		bus.unregisterPlugin('gone');
		expect(await decision).toEqual({ block: false });
		expect(called).toBe(false);
	});

	it('delivers an event to the callbacks registered when it was raised', async () => {
		const { bus } = makeBus();
		const calls: string[] = [];
		bus.register('a', 'post_compaction', () => later(5));
		void bus.notify('post_compaction', compaction);
		const queued = bus.notify('post_compaction', compaction);
		bus.register('late', 'post_compaction', () => void calls.push('late'));
		await queued;
		expect(calls).toEqual([]);
		await bus.notify('post_compaction', compaction);
		expect(calls).toEqual(['late']);
	});
});

describe('a hung observer in another plugin', () => {
	it("delays a plugin's pre_llm_call by one timeout period at most, however many events queue", async () => {
		vi.useFakeTimers();
		const { bus } = makeBus(1);
		for (const hook of ['on_session_end', 'on_session_finalize', 'on_session_start', 'on_session_reset'] as const) {
			bus.register('stuck', hook, () => new Promise(() => {}));
			bus.register('memory', hook, () => {});
		}
		bus.register('memory', 'pre_llm_call', () => 'context');
		const ids = { session_id: 's', session_key: 'k', platform: 'web' };
		void bus.notify('on_session_end', { ...ids, end_reason: 'new_session' });
		void bus.notify('on_session_finalize', ids);
		void bus.notify('on_session_start', { ...ids, profile: 'default', model: 'm' });
		void bus.notify('on_session_reset', { session_id: 's2', old_session_id: 's', session_key: 'k' });
		let result: unknown;
		void bus.collect('pre_llm_call', llmCall).then((r) => (result = r));
		await vi.advanceTimersByTimeAsync(1_000);
		expect(result).toEqual([{ plugin_id: 'memory', text: 'context' }]);
	});

	it("delays a plugin's collector and directive by 30 s at most when the timeout is off", async () => {
		expect(CATCH_UP_LIMIT_WITHOUT_TIMEOUT_MS).toBe(30_000);
		vi.useFakeTimers();
		const { bus } = makeBus(0);
		bus.register('stuck', 'post_compaction', () => new Promise(() => {}));
		bus.register('memory', 'post_compaction', () => {});
		bus.register('memory', 'pre_llm_call', () => 'context');
		bus.register('memory', 'pre_tool_call', () => ({ block: true, reason: 'caught up or not' }));
		void bus.notify('post_compaction', compaction);
		let collected: unknown;
		void bus.collect('pre_llm_call', llmCall).then((r) => (collected = r));
		let decided: unknown;
		void bus.decide('pre_tool_call', toolCall).then((r) => (decided = r));
		await vi.advanceTimersByTimeAsync(CATCH_UP_LIMIT_WITHOUT_TIMEOUT_MS - 1);
		expect(collected).toBeUndefined();
		expect(decided).toBeUndefined();
		await vi.advanceTimersByTimeAsync(1);
		expect(collected).toEqual([{ plugin_id: 'memory', text: 'context' }]);
		expect(decided).toMatchObject({ block: true, plugin_id: 'memory' });
	});

	it('keeps one timeout period as the limit when the timeout is on', async () => {
		vi.useFakeTimers();
		const { bus } = makeBus(45);
		bus.register('stuck', 'post_compaction', () => new Promise(() => {}));
		bus.register('memory', 'post_compaction', () => {});
		bus.register('memory', 'pre_llm_call', () => 'context');
		void bus.notify('post_compaction', compaction);
		let collected: unknown;
		void bus.collect('pre_llm_call', llmCall).then((r) => (collected = r));
		await vi.advanceTimersByTimeAsync(44_999);
		expect(collected).toBeUndefined();
		await vi.advanceTimersByTimeAsync(1);
		expect(collected).toEqual([{ plugin_id: 'memory', text: 'context' }]);
	});

	it('stops holding the queue once its plugin is removed, even with the timeout off', async () => {
		const { bus } = makeBus(0);
		const seen: string[] = [];
		bus.register('stuck', 'post_compaction', () => new Promise(() => {}));
		bus.register('next', 'post_compaction', ({ session_id }) => void seen.push(session_id));
		void bus.notify('post_compaction', compaction);
		await later(5);
		expect(seen).toEqual([]);
		bus.unregisterPlugin('stuck');
		await bus.settled();
		expect(seen).toEqual([compaction.session_id]);
	});
});

describe('a stopped turn', () => {
	it('asks no further plugins for pre_llm_call context once its signal aborts', async () => {
		const { bus } = makeBus();
		const controller = new AbortController();
		const asked: string[] = [];
		bus.register('first', 'pre_llm_call', () => {
			asked.push('first');
			controller.abort();
			return 'one';
		});
		bus.register('second', 'pre_llm_call', () => void asked.push('second'));
		await bus.collect('pre_llm_call', llmCall, controller.signal);
		expect(asked).toEqual(['first']);
	});
});
