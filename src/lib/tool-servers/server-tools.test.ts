// The turn's side of tool servers: which tools are offered (switched-on tools of connected
// servers, named apart from plugin tools), the question before a first run, and a call's
// progress and Stop.
import { describe, expect, it, vi } from 'vitest';
import { DENIED, ServerTools, type Approval, type ApprovalRequest, type ServerToolsDeps, type ToolServerCalls } from './server-tools';
import type { CallProgress, ServerTool, ToolServerConfig } from './types';

const tool = (name: string): ServerTool => ({ name, description: `${name} does things`, inputSchema: { type: 'object', properties: {} } });
const INFO = { name: 'calc', version: '1.0.0', instructions: 'Use calc for sums.' };
const IMAGE = new Blob([new Uint8Array([1, 2, 3, 4])], { type: 'image/png' });

function setup(answers: Approval[] = [], configs: ToolServerConfig[] = [config()]) {
	const progress: Array<[string, CallProgress | null]> = [];
	const asked: string[] = [];
	const calls: ToolServerCalls & { cancelled: string[]; made: string[] } = {
		cancelled: [],
		made: [],
		async call(request, onProgress) {
			calls.made.push(`${request.serverId}:${request.tool}`);
			onProgress({ progress: 1, total: 2 });
			return {
				isError: false,
				forModel: `ran ${request.tool} with ${JSON.stringify(request.args)}`,
				parts: [{ type: 'text', text: 'ok' }, { type: 'image', id: 'i1', mimeType: 'image/png', size: 4 }],
				images: [{ id: 'i1', type: 'image/png', data: IMAGE }]
			};
		},
		cancel(callId) {
			calls.cancelled.push(callId);
		}
	};
	const deps: ServerToolsDeps = {
		calls: async () => calls,
		configs: () => configs,
		approve: async (request) => {
			asked.push(request.tool);
			return answers.shift() ?? 'deny';
		},
		allowAlways: vi.fn(async (serverId: string, name: string) => {
			configs = configs.map((c) => (c.id === serverId ? { ...c, always_allowed: [...c.always_allowed, name] } : c));
		}),
		timeoutMs: () => 1000,
		onProgress: (callId, p) => progress.push([callId, p])
	};
	const tools = new ServerTools(deps);
	tools.setConnected('s1', INFO, [tool('add'), tool('wipe')]);
	return { tools, calls, asked, progress, deps };
}

function config(extra: Partial<ToolServerConfig> = {}): ToolServerConfig {
	return { id: 's1', url: 'https://calc.test/mcp', authorization: '', added_at: 1, disabled_tools: [], always_allowed: [], ...extra };
}

describe('the tools of tool servers', () => {
	it('offers the switched-on tools of connected servers, named apart from plugin tools, with the server’s instructions', () => {
		const { tools } = setup([], [config({ disabled_tools: ['wipe'] })]);
		const names = tools.schemas(new Set(['calc__add'])).map((s) => s.name);
		expect(names).toHaveLength(1);
		expect(names[0]).not.toBe('calc__add');
		expect(names[0]).toMatch(/^calc__add/);
		expect(tools.serverOf(names[0], new Set(['calc__add']))).toBe('calc');
		expect(tools.instructions()).toEqual([{ server: 'calc', text: 'Use calc for sums.' }]);
		tools.setGone('s1');
		expect(tools.schemas(new Set())).toEqual([]);
		expect(tools.instructions()).toEqual([]);
	});

	it('asks again when a plugin changed the arguments of an always allowed tool, showing both; no answer to that is kept as Always allow', async () => {
		const requests: ApprovalRequest[] = [];
		const { tools, calls, deps } = setup([], [config({ always_allowed: ['add'] })]);
		const answers: Approval[] = ['deny', 'always', 'once'];
		deps.approve = async (request) => {
			requests.push(request);
			return answers.shift() ?? 'deny';
		};
		const rewrite = { modelArgs: { a: 1 }, plugins: ['Rewriter'] };
		const run = (args: Record<string, unknown>, changed?: typeof rewrite) => tools.run('calc__add', args, { sessionId: 's', callId: 'c1', rewrite: changed }, new Set());

		const denied = await run({ a: 99 }, rewrite);
		expect(denied).toMatchObject({ text: DENIED, denied: true });
		expect(calls.made).toEqual([]);
		expect(requests[0]).toEqual({ sessionId: 's', callId: 'c1', serverId: 's1', serverName: 'calc', tool: 'add', args: { a: 99 }, rewrite, choices: ['once', 'deny'] });

		// An "always" for rewritten arguments runs this call only, and keeps nothing.
		expect((await run({ a: 99 }, rewrite)).text).toBe('ran add with {"a":99}');
		expect((await run({ a: 99 }, rewrite)).text).toBe('ran add with {"a":99}');
		expect(requests).toHaveLength(3);
		expect(deps.allowAlways).not.toHaveBeenCalled();

		// The model's own arguments are still always allowed.
		expect((await run({ a: 1 })).text).toBe('ran add with {"a":1}');
		expect(requests).toHaveLength(3);
		expect(calls.made).toEqual(['s1:add', 's1:add', 's1:add']);
	});

	it('offers every answer, without a rewrite, before a tool not always allowed runs', async () => {
		const requests: ApprovalRequest[] = [];
		const { tools, deps } = setup();
		deps.approve = async (request) => {
			requests.push(request);
			return 'once';
		};
		await tools.run('calc__add', { a: 1 }, { sessionId: 's', callId: 'c1' }, new Set());
		expect(requests).toEqual([{ sessionId: 's', callId: 'c1', serverId: 's1', serverName: 'calc', tool: 'add', args: { a: 1 }, choices: ['once', 'always', 'deny'] }]);
	});

	it('asks before a run: once asks again, always does not, deny answers the model without a call', async () => {
		const { tools, calls, asked } = setup(['once', 'always', 'deny']);
		const run = (name: string) => tools.run(name, { a: 1 }, { sessionId: 's', callId: crypto.randomUUID() }, new Set());
		expect((await run('calc__add')).text).toBe('ran add with {"a":1}');
		expect((await run('calc__add')).text).toBe('ran add with {"a":1}');
		// Always allowed since the second: asked no more.
		expect((await run('calc__add')).text).toBe('ran add with {"a":1}');
		expect(asked).toEqual(['add', 'add']);
		const denied = await run('calc__wipe');
		expect(denied.text).toBe(DENIED);
		expect(denied.stored).toMatchObject({ server: 'calc', is_error: true });
		expect(calls.made).toEqual(['s1:add', 's1:add', 's1:add']);
	});

	it('keeps an image in the stored parts by reference, its bytes apart, and reports progress until the call ends', async () => {
		const { tools, progress } = setup([], [config({ always_allowed: ['add'] })]);
		const result = await tools.run('calc__add', {}, { sessionId: 's', callId: 'c1' }, new Set());
		expect(result.stored.parts).toEqual([{ type: 'text', text: 'ok' }, { type: 'image', id: 'i1', mimeType: 'image/png', size: 4 }]);
		expect(result.images).toEqual([{ id: 'i1', type: 'image/png', data: IMAGE }]);
		expect(progress).toEqual([['c1', { progress: 1, total: 2 }], ['c1', null]]);
	});

	it('cancels the call on the server when the turn is stopped, and never calls after a stop during the question', async () => {
		const { tools, calls } = setup(['once'], [config({ always_allowed: ['add'] })]);
		const stop = new AbortController();
		const slow = { ...calls, call: () => new Promise<never>(() => {}) };
		const stoppable = new ServerTools({
			calls: async () => slow,
			configs: () => [config({ always_allowed: ['add'] })],
			approve: async () => 'once',
			allowAlways: async () => {},
			timeoutMs: () => 1000,
			onProgress: () => {}
		});
		stoppable.setConnected('s1', INFO, [tool('add')]);
		void stoppable.run('calc__add', {}, { sessionId: 's', callId: 'c2', signal: stop.signal }, new Set()).catch(() => {});
		await vi.waitFor(() => expect(calls.cancelled).toEqual([]));
		stop.abort();
		await vi.waitFor(() => expect(calls.cancelled).toEqual(['c2']));
		const stopped = new AbortController();
		stopped.abort();
		await expect(tools.run('calc__add', {}, { sessionId: 's', callId: 'c3', signal: stopped.signal }, new Set())).rejects.toThrow();
		expect(calls.made).toEqual([]);
	});
});
