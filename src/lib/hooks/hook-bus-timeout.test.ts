import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { HookBus } from './hook-bus';
import { resolveTimeoutMs } from './timeouts';
import type { HookLogEntry } from './run-hook';
import { compaction, quietLogger, toolCall } from './test-fixtures';

const never = () => new Promise<never>(() => {});

function makeBus(timeoutSeconds = 30) {
	const log: HookLogEntry[] = [];
	const logger = quietLogger();
	const bus = new HookBus({ record: (e) => log.push(e), logger, timeoutSeconds: () => timeoutSeconds });
	return { bus, log, logger };
}

beforeEach(() => vi.useFakeTimers());
afterEach(() => vi.useRealTimers());

describe('hook timeouts', () => {
	it('abandons a callback past the timeout, logs it, and runs the next', async () => {
		const { bus, log, logger } = makeBus(30);
		const calls: string[] = [];
		bus.register('slow', 'post_compaction', never);
		bus.register('next', 'post_compaction', () => void calls.push('next'));
		const done = bus.notify('post_compaction', compaction);
		await vi.advanceTimersByTimeAsync(29_999);
		expect(calls).toEqual([]);
		await vi.advanceTimersByTimeAsync(1);
		await done;
		expect(calls).toEqual(['next']);
		expect(log[0]).toMatchObject({ plugin_id: 'slow', outcome: 'timeout', duration_ms: 30_000 });
		expect(logger.messages[0]).toMatch(/plugin "slow" timed out after 30 s in post_compaction/);
	});

	it('ignores the late result of an abandoned callback', async () => {
		const { bus } = makeBus(1);
		bus.register('late', 'pre_llm_call', () => new Promise((resolve) => setTimeout(() => resolve('too late'), 5_000)));
		const result = bus.collect('pre_llm_call', {
			session_id: 's', session_key: 'k', user_message: 'u', conversation_history: [],
			is_first_turn: true, model: 'm', platform: 'web', profile: 'default'
		});
		await vi.advanceTimersByTimeAsync(10_000);
		await expect(result).resolves.toEqual([]);
	});

	it('skips a timed-out callback for 60 s, then tries it again', async () => {
		const { bus, log } = makeBus(1);
		let calls = 0;
		bus.register('slow', 'post_compaction', () => {
			calls++;
			return never();
		});
		const first = bus.notify('post_compaction', compaction);
		await vi.advanceTimersByTimeAsync(1_000);
		await first;
		expect(calls).toBe(1);

		await vi.advanceTimersByTimeAsync(58_000);
		await bus.notify('post_compaction', compaction);
		expect(calls).toBe(1);
		expect(log[1]).toMatchObject({ plugin_id: 'slow', outcome: 'skipped' });

		await vi.advanceTimersByTimeAsync(2_000);
		const third = bus.notify('post_compaction', compaction);
		await vi.advanceTimersByTimeAsync(0);
		expect(calls).toBe(2);
		await vi.advanceTimersByTimeAsync(1_000);
		await third;
		expect(log.map((e) => e.outcome)).toEqual(['timeout', 'skipped', 'timeout']);
	});

	it('skips only the callback that timed out, not its siblings', async () => {
		const { bus, log } = makeBus(1);
		bus.register('p', 'post_compaction', never);
		bus.register('p', 'post_compaction', () => {});
		const first = bus.notify('post_compaction', compaction);
		await vi.advanceTimersByTimeAsync(1_000);
		await first;
		await bus.notify('post_compaction', compaction);
		expect(log.map((e) => e.outcome)).toEqual(['timeout', 'ok', 'skipped', 'ok']);
	});

	it('waits without limit when the timeout is 0', async () => {
		const { bus, log } = makeBus(0);
		bus.register('slow', 'post_compaction', () => new Promise((resolve) => setTimeout(resolve, 3_600_000)));
		const done = bus.notify('post_compaction', compaction);
		await vi.advanceTimersByTimeAsync(3_599_999);
		expect(log).toEqual([]);
		await vi.advanceTimersByTimeAsync(1);
		await done;
		expect(log[0].outcome).toBe('ok');
	});

	it('clamps the timeout to 600 s', async () => {
		const { bus, log } = makeBus(5_000);
		bus.register('slow', 'post_compaction', never);
		const done = bus.notify('post_compaction', compaction);
		await vi.advanceTimersByTimeAsync(600_000);
		await done;
		expect(log[0]).toMatchObject({ outcome: 'timeout', error: 'timed out after 600 s' });
	});

	it('defaults to 30 s', async () => {
		expect(resolveTimeoutMs(Number.NaN)).toBe(30_000);
		expect(resolveTimeoutMs(-1)).toBe(0);
		expect(resolveTimeoutMs(2.5)).toBe(2_500);
		const log: HookLogEntry[] = [];
		const bus = new HookBus({ record: (e) => log.push(e), logger: quietLogger() });
		bus.register('slow', 'post_compaction', never);
		const done = bus.notify('post_compaction', compaction);
		await vi.advanceTimersByTimeAsync(30_000);
		await done;
		expect(log[0]).toMatchObject({ outcome: 'timeout', duration_ms: 30_000 });
	});

	it('reads the timeout setting on every call, so a change applies to the next dispatch', async () => {
		let seconds = 30;
		const log: HookLogEntry[] = [];
		const bus = new HookBus({ timeoutSeconds: () => seconds, record: (e) => log.push(e), logger: quietLogger() });
		bus.register('slow', 'post_compaction', never);
		const first = bus.notify('post_compaction', compaction);
		await vi.advanceTimersByTimeAsync(30_000);
		await first;
		expect(log).toMatchObject([{ outcome: 'timeout', duration_ms: 30_000 }]);
		seconds = 1;
		// Past the 60 s a timed-out callback sits out, then dispatched again.
		await vi.advanceTimersByTimeAsync(60_000);
		const second = bus.notify('post_compaction', compaction);
		await vi.advanceTimersByTimeAsync(1_000);
		await second;
		expect(log[1]).toMatchObject({ outcome: 'timeout', duration_ms: 1_000 });
	});

	it('blocks a tool call whose guard times out, and while it is skipped', async () => {
		const { bus } = makeBus(1);
		bus.register('guard', 'pre_tool_call', never);
		const first = bus.decide('pre_tool_call', toolCall);
		await vi.advanceTimersByTimeAsync(1_000);
		await expect(first).resolves.toMatchObject({ block: true, plugin_id: 'guard', reason: expect.stringMatching(/"guard" timed out/) });
		await expect(bus.decide('pre_tool_call', toolCall)).resolves.toMatchObject({ block: true, plugin_id: 'guard' });
	});
});
