// A tool call whose arguments a plugin's pre_tool_call changed: a tool server's tool asks again
// even when always allowed (the model's arguments and the plugin's both in the question), a
// denial keeps the call from the server, and what ran is stored, shown and told to the model.
// A plugin's own tool has no approval: it runs with the changed arguments, said the same way.
import 'fake-indexeddb/auto';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { PalimpsestDb } from '../db/database';
import { listMessages } from '../db/message-verbs';
import { HookBus } from '../hooks/hook-bus';
import { ToolRegistry } from '../plugins/plugin-tools';
import { createSession } from '../sessions/session-lifecycle';
import { DENIED, ServerTools, type Approval, type ApprovalRequest } from '../tool-servers/server-tools';
import type { ToolCall } from '../providers/types';
import { say, scripted } from './compaction-fixtures';
import { runTurn } from './run-turn';
import { combineTools } from './turn-tools';
import type { TurnDeps } from './turn-deps';

let db: PalimpsestDb;
beforeEach(() => {
	db = new PalimpsestDb(`rewrite-${crypto.randomUUID()}`);
});
afterEach(async () => {
	db.close();
	await db.delete();
});

const NAMES: Record<string, string> = { rewriter: 'Argument rewriter', tidy: 'Tidy keys' };

/** A tool server offering `echo`, always allowed; the answers given to its questions, in turn. */
function echoServer(answers: Approval[]) {
	const asked: ApprovalRequest[] = [];
	const received: Record<string, unknown>[] = [];
	const servers = new ServerTools({
		calls: async () => ({
			async call(request) {
				received.push(request.args);
				return { isError: false, forModel: `Echo: ${String(request.args.message)}`, parts: [{ type: 'text', text: `Echo: ${String(request.args.message)}` }], images: [] };
			},
			cancel: () => {}
		}),
		configs: () => [{ id: 's', url: 'https://tools.test/mcp', authorization: '', added_at: 0, disabled_tools: [], always_allowed: ['echo'] }],
		approve: async (request) => {
			asked.push(request);
			return answers.shift() ?? 'deny';
		},
		allowAlways: async () => {
			throw new Error('Always allow must not be kept here');
		},
		timeoutMs: () => 1000,
		onProgress: () => {}
	});
	servers.setConnected('s', { name: 'tools', version: '1', instructions: '' }, [{ name: 'echo', description: 'Echoes', inputSchema: { type: 'object', properties: { message: { type: 'string' } } } }]);
	// The name the model knows the tool by.
	const echo = servers.schemas(new Set())[0].name;
	return { servers, asked, received, echo };
}

/** Runs one turn in which the model calls `name` with `args`, then answers. */
async function callOnce(deps: Omit<TurnDeps, 'db' | 'provider' | 'model' | 'profile' | 'platform'>, name: string, args: Record<string, unknown>) {
	const call: ToolCall = { id: 'call-1', name, arguments: JSON.stringify(args) };
	const { provider, requests } = scripted(async function* (_request, n) {
		if (n === 0) {
			yield { type: 'tool_call', call };
			yield { type: 'done', finish_reason: 'tool_calls' };
		} else yield* say('Done.');
	});
	const session = await createSession({ db, profile: 'default', platform: 'web' }, { provider: 'scripted', model: 'm' });
	await runTurn({ db, provider, model: 'm', profile: 'default', platform: 'web', checkpointMs: 0, pluginName: (id) => NAMES[id] ?? id, ...deps }, { sessionId: session.id, text: 'Go' });
	const tool = (await listMessages(db, session.id)).find((row) => row.role === 'tool')!;
	const sent = requests[1].messages.find((message) => message.role === 'tool')!;
	return { tool, sent };
}

function rewritingBus() {
	const hooks = new HookBus({ logger: { warn: () => {} } });
	hooks.register('rewriter', 'pre_tool_call', () => ({ args: { message: 'REWRITTEN' } }));
	const post: unknown[] = [];
	hooks.register('watch', 'post_tool_call', ({ args }: { args: unknown }) => void post.push(args));
	return { hooks, post };
}

describe('a tool call whose arguments a plugin changed', () => {
	it('asks again before an always allowed server tool runs, with both; Deny keeps the rewrite from the server', async () => {
		const { servers, asked, received, echo } = echoServer(['deny']);
		const { hooks } = rewritingBus();
		const { tool, sent } = await callOnce({ hooks, tools: combineTools(undefined, servers) }, echo, { message: 'hello' });
		expect(asked).toEqual([
			{
				serverId: 's',
				serverName: 'tools',
				tool: 'echo',
				args: { message: 'REWRITTEN' },
				rewrite: { modelArgs: { message: 'hello' }, plugins: ['Argument rewriter'] },
				choices: ['once', 'deny'],
				// Which call of which session asks, so its row in the transcript can say it waits.
				callId: 'call-1',
				sessionId: expect.any(String)
			}
		]);
		expect(received).toEqual([]);
		expect(tool.content).toBe(DENIED);
		expect(tool.ran_with).toBeUndefined();
		expect(sent.content).toBe(DENIED);
	});

	it('runs as changed when allowed once, keeps what it ran with and who changed it, and tells the model', async () => {
		const { servers, received, echo } = echoServer(['once']);
		const { hooks, post } = rewritingBus();
		const { tool, sent } = await callOnce({ hooks, tools: combineTools(undefined, servers) }, echo, { message: 'hello' });
		expect(received).toEqual([{ message: 'REWRITTEN' }]);
		expect(tool.ran_with).toEqual({ arguments: '{"message":"REWRITTEN"}', changed_by: ['Argument rewriter'] });
		const told = '[The plugin "Argument rewriter" changed the arguments of this call; the tool ran with {"message":"REWRITTEN"}]\n\nEcho: REWRITTEN';
		expect(tool.content).toBe(told);
		expect(sent.content).toBe(told);
		await expect.poll(() => post).toEqual([{ message: 'REWRITTEN' }]);
	});

	it('asks nothing and says nothing when the plugin handed the model’s arguments back, keys reordered', async () => {
		const { servers, asked, received, echo } = echoServer([]);
		const hooks = new HookBus({ logger: { warn: () => {} } });
		hooks.register('tidy', 'pre_tool_call', ({ args }: { args: Record<string, unknown> }) => ({ args: { message: args.message, count: args.count } }));
		const { tool } = await callOnce({ hooks, tools: combineTools(undefined, servers) }, echo, { count: 2, message: 'hello' });
		expect(asked).toEqual([]);
		expect(received).toEqual([{ message: 'hello', count: 2 }]);
		expect(tool.ran_with).toBeUndefined();
		expect(tool.content).toBe('Echo: hello');
	});

	it('runs a plugin’s own tool, which has no approval, with the changed arguments, and says so', async () => {
		const { hooks } = rewritingBus();
		const plugins = new ToolRegistry(hooks);
		const handled: unknown[] = [];
		plugins.add({
			plugin_id: 'words',
			name: 'shout',
			parameters: { type: 'object', properties: { message: { type: 'string' } } },
			handler: (args: Record<string, unknown>) => {
				handled.push(args);
				return String(args.message).toUpperCase();
			}
		});
		const { tool } = await callOnce({ hooks, tools: combineTools(plugins, undefined) }, 'shout', { message: 'hello' });
		expect(handled).toEqual([{ message: 'REWRITTEN' }]);
		expect(tool.ran_with).toEqual({ arguments: '{"message":"REWRITTEN"}', changed_by: ['Argument rewriter'] });
		expect(tool.content).toMatch(/^\[The plugin "Argument rewriter" changed the arguments of this call; the tool ran with \{"message":"REWRITTEN"\}\]\n\nREWRITTEN$/);
	});
});
