// The tools a chat offers the model: all the user allowed, less what its Chat settings leave
// out (plugin tools by name, tool servers by server). What is left out is neither offered nor
// run, and the rest keep the names they have with everything on.
import { describe, expect, it } from 'vitest';
import { HookBus } from '../hooks/hook-bus';
import { ToolRegistry } from '../plugins/plugin-tools';
import { ServerTools } from '../tool-servers/server-tools';
import type { ServerTool, ToolServerConfig } from '../tool-servers/types';
import { combineTools } from './turn-tools';

const serverTool = (name: string): ServerTool => ({ name, description: `${name} does things`, inputSchema: { type: 'object', properties: {} } });
const config = (id: string): ToolServerConfig => ({ id, url: `https://${id}.test/mcp`, authorization: '', added_at: 1, disabled_tools: [], always_allowed: [] });

function setup() {
	const ran: string[] = [];
	const plugins = new ToolRegistry(new HookBus());
	for (const name of ['clock', 'notes']) plugins.add({ plugin_id: 'helper', name, description: name, parameters: { type: 'object' }, handler: () => (ran.push(name), 'ok') });
	const servers = new ServerTools({
		calls: async () => ({ call: async (request) => (ran.push(`${request.serverId}:${request.tool}`), { isError: false, forModel: 'ok', parts: [], images: [] }), cancel: () => {} }),
		configs: () => [{ ...config('calc'), always_allowed: ['add'] }, { ...config('files'), always_allowed: ['read'] }],
		approve: async () => 'once',
		allowAlways: async () => {},
		timeoutMs: () => 1000,
		onProgress: () => {}
	});
	servers.setConnected('calc', { name: 'calc', version: '1', instructions: 'Use calc for sums.' }, [serverTool('add')]);
	servers.setConnected('files', { name: 'files', version: '1', instructions: 'Files are read-only.' }, [serverTool('read')]);
	return { plugins, servers, ran };
}

describe("a chat's tools", () => {
	it('are every plugin tool and every connected server’s tool by default', () => {
		const { plugins, servers } = setup();
		expect(combineTools(plugins, servers)?.schemas().map((s) => s.name)).toEqual(['clock', 'notes', 'calc__add', 'files__read']);
	});

	it('leave out the plugin tools and tool servers the chat turned off, which are not run when called', async () => {
		const { plugins, servers, ran } = setup();
		const tools = combineTools(plugins, servers, { plugins: new Set(['notes']), servers: new Set(['files']) })!;
		expect(tools.schemas().map((s) => s.name)).toEqual(['clock', 'calc__add']);
		expect(servers.instructions((id) => id !== 'files')).toEqual([{ server: 'calc', text: 'Use calc for sums.' }]);
		const context = { session_id: 's', call_id: 'c' };
		await expect(tools.run('notes', {}, context)).rejects.toThrow('which no plugin or tool server offers in this chat');
		await expect(tools.run('files__read', {}, context)).rejects.toThrow('The model called "files__read"');
		expect(tools.serverOf?.('files__read')).toBeUndefined();
		await tools.run('clock', {}, context);
		await tools.run('calc__add', {}, context);
		expect(ran).toEqual(['clock', 'calc:add']);
	});

	it('are none at all when the chat turns every one off', () => {
		const { plugins, servers } = setup();
		expect(combineTools(plugins, servers, { plugins: new Set(['clock', 'notes']), servers: new Set(['calc', 'files']) })).toBeUndefined();
	});
});
