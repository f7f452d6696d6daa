// A bus whose plugins share nothing (every plugin isolated, as in the app) calls them without
// waiting for one another, and nothing else changes: each plugin's callbacks run in their
// order one at a time, each plugin gets its events in order and catches up on its own,
// collector texts keep the load order, and directives still chain in turn.
import { describe, expect, it } from 'vitest';
import { HookBus } from './hook-bus';
import { compaction, llmCall, quietLogger, toolCall } from './test-fixtures';

function gate() {
	let open!: () => void;
	const opened = new Promise<void>((resolve) => (open = resolve));
	return { opened, open };
}

const tick = () => new Promise((resolve) => setTimeout(resolve, 0));

function makeBus(concurrentPlugins: boolean) {
	const bus = new HookBus({ logger: quietLogger(), timeoutSeconds: () => 30, concurrentPlugins });
	bus.setPluginOrder(['a', 'b']);
	return bus;
}

describe.each([true, false])('a bus with concurrentPlugins: %s', (concurrent) => {
	it('collects in load order; a slow plugin holds up the others only when not concurrent', async () => {
		const bus = makeBus(concurrent);
		const slow = gate();
		const started: string[] = [];
		bus.register('a', 'pre_llm_call', async () => {
			started.push('a');
			await slow.opened;
			return 'from a';
		});
		bus.register('b', 'pre_llm_call', () => {
			started.push('b');
			return 'from b';
		});
		const collecting = bus.collect('pre_llm_call', llmCall);
		await tick();
		expect(started).toEqual(concurrent ? ['a', 'b'] : ['a']);
		slow.open();
		expect(await collecting).toEqual([
			{ plugin_id: 'a', text: 'from a' },
			{ plugin_id: 'b', text: 'from b' }
		]);
	});

	it("runs one plugin's callbacks one at a time, in registration order", async () => {
		const bus = makeBus(concurrent);
		const first = gate();
		const seen: string[] = [];
		bus.register('a', 'post_compaction', async () => {
			seen.push('a1 start');
			await first.opened;
			seen.push('a1 end');
		});
		bus.register('a', 'post_compaction', () => void seen.push('a2'));
		void bus.notify('post_compaction', compaction);
		await tick();
		expect(seen).toEqual(['a1 start']);
		first.open();
		await bus.settled();
		expect(seen).toEqual(['a1 start', 'a1 end', 'a2']);
	});

	it('delivers each plugin its events in order, and a collector waits only for its own plugin', async () => {
		const bus = makeBus(concurrent);
		const slow = gate();
		const events: string[] = [];
		bus.register('a', 'post_compaction', async ({ reason }) => {
			await slow.opened;
			events.push(`a ${reason}`);
		});
		bus.register('b', 'post_compaction', ({ reason }) => void events.push(`b ${reason}`));
		bus.register('b', 'pre_llm_call', () => `b saw ${events.filter((e) => e.startsWith('b')).length}`);
		bus.register('a', 'pre_llm_call', () => `a saw ${events.filter((e) => e.startsWith('a')).length}`);
		void bus.notify('post_compaction', { ...compaction, reason: 'manual' });
		void bus.notify('post_compaction', { ...compaction, reason: 'pre_api' });
		const collecting = bus.collect('pre_llm_call', llmCall);
		await tick();
		slow.open();
		const texts = (await collecting).map((item) => item.text);
		expect(texts).toEqual(['a saw 2', 'b saw 2']);
		expect(events.filter((e) => e.startsWith('a'))).toEqual(['a manual', 'a pre_api']);
		expect(events.filter((e) => e.startsWith('b'))).toEqual(['b manual', 'b pre_api']);
	});

	it('chains directives in turn: the second guard sees the args the first returned', async () => {
		const bus = makeBus(concurrent);
		bus.register('a', 'pre_tool_call', () => ({ args: { path: '/safe.txt' } }));
		bus.register('b', 'pre_tool_call', ({ args }) => (args.path === '/safe.txt' ? undefined : { block: true, reason: 'unsafe' }));
		expect(await bus.decide('pre_tool_call', toolCall)).toEqual({ block: false, args: { path: '/safe.txt' }, rewritten_by: ['a'] });
	});

	it('asks no plugin once the turn was stopped', async () => {
		const bus = makeBus(concurrent);
		const asked: string[] = [];
		bus.register('a', 'pre_llm_call', () => void asked.push('a'));
		bus.register('b', 'pre_llm_call', () => void asked.push('b'));
		const stop = new AbortController();
		stop.abort();
		expect(await bus.collect('pre_llm_call', llmCall, stop.signal)).toEqual([]);
		expect(asked).toEqual([]);
	});
});
