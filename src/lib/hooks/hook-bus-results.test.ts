import { describe, expect, it } from 'vitest';
import { joinInjected } from './dispatch-results';
import { MAX_INJECTED_CHARS } from './injected-limit';
import { HookBus } from './hook-bus';
import type { HookLogEntry } from './run-hook';
import { compaction, llmCall, quietLogger, toolCall } from './test-fixtures';

const makeBus = () => new HookBus({ logger: quietLogger() });

describe('HookBus.collect (pre_llm_call)', () => {
	it('keeps strings and { context } results in dispatch order, tagged by plugin', async () => {
		const bus = makeBus();
		bus.register('b', 'pre_llm_call', () => ({ context: 'from b' }));
		bus.register('a', 'pre_llm_call', async () => '  from a  ');
		bus.setPluginOrder(['a', 'b']);
		const items = await bus.collect('pre_llm_call', llmCall);
		expect(items).toEqual([
			{ plugin_id: 'a', text: 'from a' },
			{ plugin_id: 'b', text: 'from b' }
		]);
		expect(joinInjected(items)).toBe('from a\n\nfrom b');
	});

	it('ignores empty, null, odd results and callbacks that throw', async () => {
		const bus = makeBus();
		const odd: unknown[] = ['', '   ', null, undefined, 42, { context: 7 }, { text: 'no' }, ['x']];
		odd.forEach((value, i) => bus.register(`p${i}`, 'pre_llm_call', () => value as string));
		bus.register('bad', 'pre_llm_call', () => {
			throw new Error('nope');
		});
		bus.register('ok', 'pre_llm_call', () => 'kept');
		expect(await bus.collect('pre_llm_call', llmCall)).toEqual([{ plugin_id: 'ok', text: 'kept' }]);
	});

	it(`cuts what one plugin adds to a turn at ${MAX_INJECTED_CHARS} characters in all, notes where, and leaves other plugins whole`, async () => {
		const log: HookLogEntry[] = [];
		const bus = new HookBus({ logger: quietLogger(), record: (entry) => log.push(entry) });
		bus.register('big', 'pre_llm_call', () => 'a'.repeat(10_000));
		bus.register('big', 'pre_llm_call', () => 'b'.repeat(10_000));
		bus.register('big', 'pre_llm_call', () => 'c');
		bus.register('small', 'pre_llm_call', () => 's'.repeat(15_000));
		const items = await bus.collect('pre_llm_call', llmCall);
		expect(items.map((item) => [item.plugin_id, item.text.length, item.cut_from])).toEqual([
			['big', 10_000, undefined],
			['big', MAX_INJECTED_CHARS - 10_000, 10_000],
			['small', 15_000, undefined]
		]);
		const over = new HookBus({ logger: quietLogger(), record: (entry) => log.push(entry) });
		over.register('huge', 'pre_llm_call', () => 'x'.repeat(40_000));
		await over.collect('pre_llm_call', llmCall);
		expect(log.find((entry) => entry.plugin_id === 'huge')?.warning).toMatch(/at most 16,000 characters of context to a turn; the rest of these 40,000 was cut/);
	});

	it('joins nothing to an empty string', () => {
		expect(joinInjected([])).toBe('');
	});
});

describe('HookBus.decide (pre_tool_call)', () => {
	it('allows the call when nobody objects', async () => {
		const bus = makeBus();
		bus.register('a', 'pre_tool_call', () => null);
		bus.register('b', 'pre_tool_call', () => ({ block: false }));
		expect(await bus.decide('pre_tool_call', toolCall)).toEqual({ block: false });
	});

	it('lets the first block win and stops there', async () => {
		const bus = makeBus();
		let laterCalled = false;
		bus.register('a', 'pre_tool_call', ({ tool_name }) => (tool_name === 'read_file' ? { block: true, reason: 'no files' } : null));
		bus.register('b', 'pre_tool_call', () => {
			laterCalled = true;
			return { block: true, reason: 'b says no' };
		});
		expect(await bus.decide('pre_tool_call', toolCall)).toEqual({ block: true, reason: 'no files', plugin_id: 'a' });
		expect(laterCalled).toBe(false);
	});

	it('names the plugin when a block gives no reason', async () => {
		const bus = makeBus();
		bus.register('guard', 'pre_tool_call', () => ({ block: true }));
		expect(await bus.decide('pre_tool_call', toolCall)).toMatchObject({ reason: 'Blocked by plugin "guard".' });
	});

	it('fails closed: a callback that throws blocks the call, naming the plugin', async () => {
		const bus = makeBus();
		bus.register('guard', 'pre_tool_call', () => {
			throw new Error('crashed');
		});
		const decision = await bus.decide('pre_tool_call', toolCall);
		expect(decision).toMatchObject({ block: true, plugin_id: 'guard' });
		expect(decision.reason).toMatch(/Plugin "guard" failed \(crashed\)/);
	});

	it('chains args rewrites: the next callback sees the new args', async () => {
		const bus = makeBus();
		const seen: unknown[] = [];
		bus.register('a', 'pre_tool_call', ({ args }) => ({ args: { ...args, path: '/safe/a.txt' } }));
		bus.register('b', 'pre_tool_call', ({ args }) => {
			seen.push(args);
			return { args: { ...args, limit: 10 } };
		});
		const decision = await bus.decide('pre_tool_call', toolCall);
		expect(seen).toEqual([{ path: '/safe/a.txt' }]);
		expect(decision).toEqual({ block: false, args: { path: '/safe/a.txt', limit: 10 }, rewritten_by: ['a', 'b'] });
		expect(toolCall.args).toEqual({ path: '/a.txt' });
		expect(Object.isFrozen(decision.args)).toBe(false);
	});

	it('a later guard cannot change replaced args in place; only a returned rewrite counts', async () => {
		const bus = makeBus();
		bus.register('a', 'pre_tool_call', ({ args }) => ({ args: { ...args, path: '/safe/a.txt' } }));
		bus.register('b', 'pre_tool_call', ({ args }) => {
			try {
				(args as Record<string, unknown>).path = '/etc/passwd';
			} catch {
				// frozen: the write is refused
			}
		});
		const decision = await bus.decide('pre_tool_call', toolCall);
		expect(decision).toEqual({ block: false, args: { path: '/safe/a.txt' }, rewritten_by: ['a'] });
	});

	it('names only the plugins that changed the args: handing them back as given, keys reordered, changes nothing', async () => {
		const bus = makeBus();
		const call = { ...toolCall, args: { path: '/a.txt', mode: 'r' } };
		bus.register('same', 'pre_tool_call', ({ args }) => ({ args: { mode: args.mode, path: args.path } }));
		bus.register('changer', 'pre_tool_call', ({ args }) => ({ args: { ...args, path: '/b.txt' } }));
		bus.register('changer', 'pre_tool_call', ({ args }) => ({ args: { ...args, mode: 'w' } }));
		bus.register('echo', 'pre_tool_call', ({ args }) => ({ args }));
		const decision = await bus.decide('pre_tool_call', call);
		expect(decision).toEqual({ block: false, args: { path: '/b.txt', mode: 'w' }, rewritten_by: ['changer'] });
		const unchanged = makeBus();
		unchanged.register('same', 'pre_tool_call', ({ args }) => ({ args: { mode: args.mode, path: args.path } }));
		expect(await unchanged.decide('pre_tool_call', call)).toEqual({ block: false, args: { mode: 'r', path: '/a.txt' } });
	});

	it('blocks when a plugin returns args that are not plain data', async () => {
		const bus = makeBus();
		bus.register('a', 'pre_tool_call', () => ({ args: { run: () => 1 } }));
		expect(await bus.decide('pre_tool_call', toolCall)).toMatchObject({ block: true, plugin_id: 'a' });
		const bus2 = makeBus();
		bus2.register('b', 'pre_tool_call', () => ({ args: ['x'] as unknown as Record<string, unknown> }));
		expect(await bus2.decide('pre_tool_call', toolCall)).toMatchObject({ block: true, plugin_id: 'b' });
	});
});

describe('results that are not plain data', () => {
	// Reading these runs plugin code; `then` stays readable so the value reaches the bus.
	const throwingGetter = () => ({
		get context(): string {
			throw new Error('boom');
		}
	});
	const throwingProxy = () =>
		new Proxy(
			{},
			{
				get: (_target, key) => {
					if (key === 'then') return undefined;
					throw new Error('trap');
				}
			}
		);

	// Registered as untyped plugin code would be: by a `string` name, with any callback.
	const register = (bus: HookBus, pluginId: string, hook: string, callback: () => unknown) => bus.register(pluginId, hook, callback);

	function loggingBus() {
		const log: HookLogEntry[] = [];
		const logger = quietLogger();
		return { bus: new HookBus({ logger, record: (e) => log.push(e) }), log, logger };
	}

	it('logs a collector result whose getter throws as that plugin’s error and keeps the others', async () => {
		const { bus, log, logger } = loggingBus();
		bus.register('before', 'pre_llm_call', () => 'first');
		register(bus, 'getter', 'pre_llm_call', throwingGetter);
		register(bus, 'proxy', 'pre_llm_call', throwingProxy);
		register(bus, 'function', 'pre_llm_call', () => ({ context: 'x', toString: () => 'x' }));
		bus.register('after', 'pre_llm_call', () => ({ context: 'last' }));

		await expect(bus.collect('pre_llm_call', llmCall)).resolves.toEqual([
			{ plugin_id: 'before', text: 'first' },
			{ plugin_id: 'after', text: 'last' }
		]);
		expect(log.map((e) => [e.plugin_id, e.hook, e.outcome])).toEqual([
			['before', 'pre_llm_call', 'ok'],
			['getter', 'pre_llm_call', 'error'],
			['proxy', 'pre_llm_call', 'error'],
			['function', 'pre_llm_call', 'error'],
			['after', 'pre_llm_call', 'ok']
		]);
		expect(log[1].error).toMatch(/not plain data \(boom\)/);
		expect(logger.messages[0]).toMatch(/plugin "getter" failed in pre_llm_call/);
	});

	it('blocks a tool call whose guard returns a value that cannot be read, naming the plugin', async () => {
		for (const returned of [throwingGetter, throwingProxy]) {
			const { bus, log } = loggingBus();
			register(bus, 'guard', 'pre_tool_call', returned);
			const decision = await bus.decide('pre_tool_call', toolCall);
			expect(decision).toMatchObject({ block: true, plugin_id: 'guard' });
			expect(decision.reason).toMatch(/Plugin "guard" failed/);
			expect(log[0]).toMatchObject({ plugin_id: 'guard', hook: 'pre_tool_call', outcome: 'error' });
		}
	});

	it('keeps the tool args the app received, whatever the plugin does with its object later', async () => {
		const { bus } = loggingBus();
		const kept = { path: '/safe/a.txt' };
		bus.register('rewrite', 'pre_tool_call', () => ({ args: kept }));
		const decision = await bus.decide('pre_tool_call', toolCall);
		kept.path = '/etc/passwd';
		expect(decision.args).toEqual({ path: '/safe/a.txt' });
	});

	it('still ignores what an observer returns, cloneable or not', async () => {
		const { bus, log } = loggingBus();
		register(bus, 'observer', 'post_compaction', throwingProxy);
		await bus.notify('post_compaction', compaction);
		expect(log[0]).toMatchObject({ plugin_id: 'observer', outcome: 'ok' });
	});
});
