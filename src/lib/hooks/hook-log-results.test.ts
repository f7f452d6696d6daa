// What the hook log says a call returned: context added or not, a tool call blocked or its
// args changed, and a warning (not "ok") for a value the app cannot use, saying what was expected.
import { describe, expect, it } from 'vitest';
import { HookBus } from './hook-bus';
import type { HookLogEntry } from './run-hook';
import { compaction, llmCall, quietLogger, toolCall } from './test-fixtures';

function loggingBus() {
	const log: HookLogEntry[] = [];
	const bus = new HookBus({ logger: quietLogger(), record: (entry) => log.push(entry) });
	// Registered as untyped plugin code would be: by a `string` name, with any callback.
	const register = (pluginId: string, hook: string, callback: () => unknown) => bus.register(pluginId, hook, callback);
	return { bus, log, register };
}

describe('the hook log on pre_llm_call returns', () => {
	it('says how much context a plugin added, with a short preview', async () => {
		const { bus, log, register } = loggingBus();
		register('notes', 'pre_llm_call', () => ({ context: `Remember the style guide.\n\n${'x'.repeat(500)}` }));
		await bus.collect('pre_llm_call', llmCall);
		expect(log[0]).toMatchObject({ outcome: 'ok', result: expect.stringMatching(/^added context \(527 chars\): "Remember the style guide\. x+…"$/) });
		// Stored with the row: one short line, never the whole text.
		expect(log[0].result!.length).toBeLessThan(100);
	});

	it('logs a value the app cannot use as a warning that says what was expected, and adds nothing', async () => {
		const { bus, log, register } = loggingBus();
		register('bad-context', 'pre_llm_call', () => ({ context: 42 }));
		register('bad-shape', 'pre_llm_call', () => ({ text: 'hello' }));
		register('bad-type', 'pre_llm_call', () => 7);
		register('good', 'pre_llm_call', () => 'kept');
		expect(await bus.collect('pre_llm_call', llmCall)).toEqual([{ plugin_id: 'good', text: 'kept' }]);
		expect(log.map((e) => [e.plugin_id, e.outcome, e.result])).toEqual([
			['bad-context', 'warning', 'added nothing'],
			['bad-shape', 'warning', 'added nothing'],
			['bad-type', 'warning', 'added nothing'],
			['good', 'ok', 'added context (4 chars): "kept"']
		]);
		expect(log[0].warning).toBe('Expected context to be a string; got the number 42. Nothing was added.');
		expect(log[1].warning).toBe('Expected a string, { context: string }, or nothing; got an object with key text. Nothing was added.');
		expect(log[2].warning).toMatch(/got the number 7/);
	});

	it('logs returning nothing, or empty text, as ok: adding nothing is a choice', async () => {
		const { bus, log, register } = loggingBus();
		for (const [i, value] of [undefined, null, '', '  ', { context: '' }].entries()) register(`p${i}`, 'pre_llm_call', () => value);
		await bus.collect('pre_llm_call', llmCall);
		expect(log.map((e) => [e.outcome, e.result, e.warning])).toEqual(Array(5).fill(['ok', 'added nothing', undefined]));
	});
});

describe('the hook log on pre_tool_call returns', () => {
	it('says whether a guard blocked the call, changed its args or let it through', async () => {
		const { bus, log, register } = loggingBus();
		register('pass', 'pre_tool_call', () => undefined);
		register('rewrite', 'pre_tool_call', () => ({ args: { path: '/safe/a.txt' } }));
		register('guard', 'pre_tool_call', () => ({ block: true, reason: 'Only the safe folder.' }));
		await bus.decide('pre_tool_call', toolCall);
		expect(log.map((e) => [e.plugin_id, e.outcome, e.result])).toEqual([
			['pass', 'ok', 'no change'],
			['rewrite', 'ok', 'changed args: { path: "/safe/a.txt" }'],
			['guard', 'ok', 'blocked: Only the safe folder.']
		]);
	});

	it('warns when a guard meant to block but did not say block: true, and the call went through', async () => {
		const { bus, log, register } = loggingBus();
		register('yes', 'pre_tool_call', () => ({ block: 'yes' }));
		register('typo', 'pre_tool_call', () => ({ blocked: true, reason: 'no' }));
		register('bool', 'pre_tool_call', () => true);
		expect(await bus.decide('pre_tool_call', toolCall)).toEqual({ block: false });
		expect(log.map((e) => [e.outcome, e.result])).toEqual(Array(3).fill(['warning', 'no change']));
		expect(log[0].warning).toMatch(/block must be true to block; got the string "yes"/);
		expect(log[1].warning).toMatch(/Unknown field "blocked" \(expected block, reason, args\) was ignored/);
		expect(log[2].warning).toMatch(/Expected \{ block: true, reason \}, \{ args \}, or nothing; got the boolean true\. The call was let through\./);
	});

	it('warns, and blocks, when returned args are not a plain object (fails closed)', async () => {
		const { bus, log, register } = loggingBus();
		register('bad-args', 'pre_tool_call', () => ({ args: 'path=/etc' }));
		expect(await bus.decide('pre_tool_call', toolCall)).toMatchObject({ block: true, plugin_id: 'bad-args' });
		expect(log[0]).toMatchObject({ outcome: 'warning', result: 'blocked: its args were not a plain object' });
		expect(log[0].warning).toMatch(/args must be a plain object; got the string "path=\/etc"\. The tool call was blocked\./);
	});
});

describe('the details of a logged call', () => {
	it('hold the payload and the returned value, rendered in full with long parts cut', async () => {
		const { bus, log, register } = loggingBus();
		register('notes', 'pre_llm_call', () => ({ context: 'Use tabs.' }));
		await bus.collect('pre_llm_call', { ...llmCall, user_message: 'm'.repeat(5000) });
		const detail = log[0].detail!;
		expect(detail.payload).toContain('session_key: "web:default:s1"');
		expect(detail.payload).toContain('(5000 chars)');
		expect(detail.payload!.length).toBeLessThan(6000);
		expect(detail.value).toContain('context: "Use tabs."');
		expect(log[0].call_id).toBeTruthy();
	});

	it('hold the stack of a callback that threw', async () => {
		const { bus, log, register } = loggingBus();
		register('crash', 'post_compaction', function crashingObserver() {
			throw new Error('no storage');
		});
		await bus.notify('post_compaction', compaction);
		expect(log[0]).toMatchObject({ outcome: 'error', error: 'no storage' });
		expect(log[0].detail?.stack).toMatch(/crashingObserver/);
	});

	it('note an observer’s return as ignored without reading it', async () => {
		const { bus, log, register } = loggingBus();
		register('confused', 'post_compaction', () => 'Please re-inject this');
		await bus.notify('post_compaction', compaction);
		expect(log[0]).toMatchObject({ outcome: 'ok', result: "returned a string; ignored (an observer's return value is not used)" });
		expect(log[0].detail?.value).toBeUndefined();
	});

	it('give every call its own id', async () => {
		const { bus, log, register } = loggingBus();
		register('a', 'post_compaction', () => {});
		register('b', 'post_compaction', () => {});
		await bus.notify('post_compaction', compaction);
		await bus.notify('post_compaction', compaction);
		expect(new Set(log.map((e) => e.call_id)).size).toBe(4);
	});
});
