import { describe, expect, it } from 'vitest';
import { HookBus } from './hook-bus';
import type { HookLogEntry } from './run-hook';
import { compaction, llmCall, quietLogger, toolCall } from './test-fixtures';

function makeBus() {
	const log: HookLogEntry[] = [];
	const logger = quietLogger();
	const bus = new HookBus({ record: (e) => log.push(e), logger, now: () => 1000 });
	return { bus, log, logger };
}

describe('HookBus registration', () => {
	it('refuses an unknown hook name from an untyped plugin', () => {
		const { bus } = makeBus();
		const name: string = 'post_compact';
		expect(() => bus.register('mem', name, () => {})).toThrowError(/Unknown hook "post_compact"\. Valid hooks: /);
		expect(bus.listRegistrations()).toEqual([]);
	});

	it('refuses a callback that is not a function', () => {
		const { bus } = makeBus();
		const name: string = 'post_compaction';
		expect(() => bus.register('mem', name, 'nope')).toThrowError(/needs a function, got string/);
	});

	it('returns an undo that removes only that callback', async () => {
		const { bus } = makeBus();
		const calls: string[] = [];
		const undo = bus.register('mem', 'post_compaction', () => void calls.push('a'));
		bus.register('mem', 'post_compaction', () => void calls.push('b'));
		undo();
		await bus.notify('post_compaction', compaction);
		expect(calls).toEqual(['b']);
	});

	it('unregisterPlugin removes everything that plugin registered', async () => {
		const { bus } = makeBus();
		const calls: string[] = [];
		bus.register('mem', 'post_compaction', () => void calls.push('mem'));
		bus.register('mem', 'pre_llm_call', () => 'ctx');
		bus.register('idx', 'post_compaction', () => void calls.push('idx'));
		bus.unregisterPlugin('mem');
		expect(bus.listRegistrations()).toEqual([{ plugin_id: 'idx', hook: 'post_compaction' }]);
		await bus.notify('post_compaction', compaction);
		expect(calls).toEqual(['idx']);
	});

	it('stops calling a plugin unregistered during a dispatch', async () => {
		const { bus } = makeBus();
		const calls: string[] = [];
		bus.register('a', 'post_compaction', () => bus.unregisterPlugin('b'));
		bus.register('b', 'post_compaction', () => void calls.push('b'));
		await bus.notify('post_compaction', compaction);
		expect(calls).toEqual([]);
	});
});

describe('HookBus.notify', () => {
	it('runs plugins in load order, then registration order', async () => {
		const { bus } = makeBus();
		const calls: string[] = [];
		bus.register('b', 'post_compaction', () => void calls.push('b1'));
		bus.register('a', 'post_compaction', () => void calls.push('a1'));
		bus.register('b', 'post_compaction', () => void calls.push('b2'));
		bus.register('c', 'post_compaction', () => void calls.push('c1'));
		await bus.notify('post_compaction', compaction);
		expect(calls).toEqual(['b1', 'b2', 'a1', 'c1']);

		calls.length = 0;
		bus.setPluginOrder(['c', 'a']);
		await bus.notify('post_compaction', compaction);
		expect(calls).toEqual(['c1', 'a1', 'b1', 'b2']);
		expect(bus.listRegistrations().map((r) => r.plugin_id)).toEqual(['c', 'a', 'b', 'b']);
	});

	it('awaits each async callback before starting the next', async () => {
		const { bus } = makeBus();
		const calls: string[] = [];
		bus.register('a', 'post_compaction', async () => {
			await new Promise((resolve) => setTimeout(resolve, 5));
			calls.push('a done');
		});
		bus.register('b', 'post_compaction', () => void calls.push('b'));
		await bus.notify('post_compaction', compaction);
		expect(calls).toEqual(['a done', 'b']);
	});

	it('logs a throwing callback with plugin and hook, and still runs the next', async () => {
		const { bus, log, logger } = makeBus();
		const calls: string[] = [];
		bus.register('bad', 'post_compaction', () => {
			throw new Error('boom');
		});
		bus.register('good', 'post_compaction', async () => void calls.push('good'));
		await expect(bus.notify('post_compaction', compaction)).resolves.toBeUndefined();
		expect(calls).toEqual(['good']);
		expect(log.map((e) => [e.plugin_id, e.hook, e.outcome, e.error])).toEqual([
			['bad', 'post_compaction', 'error', 'boom'],
			['good', 'post_compaction', 'ok', undefined]
		]);
		expect(logger.messages[0]).toMatch(/plugin "bad" failed in post_compaction: boom/);
	});

	it('treats a rejected promise like a throw', async () => {
		const { bus, log } = makeBus();
		bus.register('bad', 'post_compaction', () => Promise.reject(new Error('later')));
		await bus.notify('post_compaction', compaction);
		expect(log[0]).toMatchObject({ outcome: 'error', error: 'later' });
	});

	it('records a short payload summary, never the message text', async () => {
		const { bus, log } = makeBus();
		bus.register('a', 'on_session_delete', () => {});
		await bus.notify('on_session_delete', {
			session_id: 'abc',
			reason: 'delete',
			profile: 'default',
			deleted_ids: ['abc', 'def'],
			sessions_dir: null
		});
		expect(log[0]).toMatchObject({ at: 1000, duration_ms: 0, hook: 'on_session_delete', plugin_id: 'a' });
		expect(log[0].summary).toBe('session_id=abc reason=delete profile=default deleted_ids=[2] sessions_dir=null');
	});

	it('hands each callback a frozen copy: mutation throws and leaks nowhere', async () => {
		const { bus, log } = makeBus();
		const app = structuredClone(compaction);
		const seen: unknown[] = [];
		bus.register('evil', 'post_compaction', (p) => {
			(p as { session_id: string }).session_id = 'hijacked';
		});
		bus.register('evil', 'post_compaction', (p) => {
			(p as unknown as { extra: number }).extra = 1;
		});
		bus.register('next', 'post_compaction', (p) => void seen.push(p));
		await bus.notify('post_compaction', app);
		expect(log.map((e) => e.outcome)).toEqual(['error', 'error', 'ok']);
		expect(log[0].error).toMatch(/read only|read-only|Cannot assign/);
		expect(seen[0]).toEqual(compaction);
		expect(seen[0]).not.toBe(app);
		expect(Object.isFrozen(seen[0])).toBe(true);
		expect(app).toEqual(compaction);
	});

	it('freezes nested data too', async () => {
		const { bus, log } = makeBus();
		bus.register('evil', 'pre_llm_call', (p) => {
			(p.conversation_history as unknown as { content: string }[])[0].content = 'changed';
		});
		const payload = {
			session_id: 's',
			session_key: 'k',
			user_message: 'u',
			conversation_history: [{ role: 'user' as const, content: 'original' }],
			is_first_turn: true,
			model: 'm',
			platform: 'web',
			profile: 'default'
		};
		await bus.collect('pre_llm_call', payload);
		expect(log[0].outcome).toBe('error');
		expect(payload.conversation_history[0].content).toBe('original');
	});

	it('calls no plugin when the payload is not cloneable', async () => {
		const { bus, logger } = makeBus();
		let called = false;
		bus.register('a', 'post_compaction', () => void (called = true));
		await bus.notify('post_compaction', { ...compaction, session_id: (() => 'x') as unknown as string });
		expect(called).toBe(false);
		expect(logger.messages[0]).toMatch(/not structured-cloneable/);
	});

	it('survives a record sink that throws', async () => {
		const logger = quietLogger();
		const bus = new HookBus({ logger, record: () => { throw new Error('disk full'); } });
		let called = false;
		bus.register('a', 'post_compaction', () => void (called = true));
		await expect(bus.notify('post_compaction', compaction)).resolves.toBeUndefined();
		expect(called).toBe(true);
	});
});

describe('dispatching by name', () => {
	// The app's hook names are checked by the compiler; these reach the bus through casts.
	const untyped = (bus: HookBus) =>
		bus as unknown as {
			notify(name: string, payload: unknown): Promise<void>;
			collect(name: string, payload: unknown): Promise<unknown>;
			decide(name: string, payload: unknown): Promise<unknown>;
		};

	it('throws on an unknown hook name instead of firing nothing', async () => {
		const bus = untyped(makeBus().bus);
		expect(() => bus.notify('post_compact', compaction)).toThrow(/Unknown hook "post_compact".*Did you mean "post_compaction"/);
		await expect(bus.collect('pre_llm', llmCall)).rejects.toThrow(/Unknown hook "pre_llm"/);
		await expect(bus.decide('pre_tool', toolCall)).rejects.toThrow(/Unknown hook "pre_tool"/);
	});

	it('throws on a hook dispatched by the method of another kind', async () => {
		const { bus: typed, log } = makeBus();
		typed.register('p', 'pre_llm_call', () => 'context');
		typed.register('p', 'pre_tool_call', () => ({ block: true }));
		const bus = untyped(typed);
		expect(() => bus.notify('pre_llm_call', llmCall)).toThrow(/"pre_llm_call" is a collector hook, not an observer/);
		await expect(bus.collect('pre_tool_call', toolCall)).rejects.toThrow(/is a directive hook/);
		await expect(bus.decide('pre_llm_call', llmCall)).rejects.toThrow(/is a collector hook/);
		expect(log).toEqual([]);
	});
});

describe('events no plugin listens to', () => {
	it('are recorded once in the hook log, marked unheard, so a compaction is visible without plugins', async () => {
		const { bus, log } = makeBus();
		await bus.notify('post_compaction', compaction);
		expect(log).toEqual([
			expect.objectContaining({ hook: 'post_compaction', plugin_id: '', outcome: 'unheard', summary: expect.stringContaining('reason=') })
		]);
		bus.register('mem', 'post_compaction', () => {});
		await bus.notify('post_compaction', compaction);
		expect(log.map((e) => e.outcome)).toEqual(['unheard', 'ok']);
	});
});
