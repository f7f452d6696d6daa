// A chat's own settings reach what its turns send and how it compacts, and only that chat's:
// another chat, and a new one, follow Settings.
import 'fake-indexeddb/auto';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openProfileDb, type PalimpsestDb } from '../../db/database';
import { HookBus } from '../../hooks/hook-bus';
import { ToolRegistry } from '../../plugins/plugin-tools';
import { createSession } from '../../sessions/session-lifecycle';
import { setChatSettings } from '../../sessions/set-chat-settings';
import { ServerTools } from '../../tool-servers/server-tools';
import { DEFAULT_SYSTEM_PROMPT } from '../../agent/build-request';
import { createServices, type Services } from './services';
import { SettingsState } from '../settings/settings.svelte';

let db: PalimpsestDb;
let settings: SettingsState;
let services: Services;
const SERVER = { id: 'srv-1', url: 'https://calc.test/mcp', authorization: '', added_at: 1, disabled_tools: [], always_allowed: [] };

beforeEach(async () => {
	db = openProfileDb(`chat-settings-${crypto.randomUUID()}`);
	await db.open();
	settings = new SettingsState(db);
	await settings.set('tool_servers', [SERVER]);
	const hooks = new HookBus();
	const tools = new ToolRegistry(hooks);
	tools.add({ plugin_id: 'helper', name: 'clock', description: 'Tells the time', parameters: { type: 'object' }, handler: () => 'noon' });
	const servers = new ServerTools({ calls: async () => ({ call: async () => ({ isError: false, forModel: '', parts: [], images: [] }), cancel: () => {} }), configs: () => settings.get('tool_servers'), approve: async () => 'deny', allowAlways: async () => {}, timeoutMs: () => 1, onProgress: () => {} });
	servers.setConnected(SERVER.id, { name: 'calc', version: '1', instructions: 'Use calc for sums.' }, [{ name: 'add', description: 'Adds', inputSchema: { type: 'object' } }]);
	services = createServices({ db, profile: { name: 'default', user_id: 'u', user_name: 'Tester', created_at: 0 }, hooks, settings, tools, serverTools: () => servers });
});
afterEach(() => db.close());

const newChat = (chat_settings?: Parameters<typeof setChatSettings>[2]) => createSession(services.sessionContext(), { provider: 'offline', model: 'offline-mini', chat_settings });

describe("a chat's settings", () => {
	it("send its own system prompt and parameters, with only the tools it uses; another chat's turns follow Settings", async () => {
		await settings.set('system_prompt', 'Be helpful.');
		const pirate = await newChat({ system_prompt: 'Answer as a pirate.', temperature: 0.3, max_tokens: 500, tool_servers_off: [SERVER.url], plugin_tools_off: ['clock'] });
		const plain = await newChat();
		const own = await services.turnDeps(pirate.id);
		expect(own.systemPrompt).toBe('Answer as a pirate.');
		expect(own.params).toMatchObject({ temperature: 0.3, max_tokens: 500 });
		expect(own.tools).toBeUndefined();
		const other = await services.turnDeps(plain.id);
		expect(other.systemPrompt).toContain('Be helpful.');
		expect(other.systemPrompt).toContain('Use calc for sums.');
		expect(other.params).toBeUndefined();
		expect(other.tools?.schemas().map((tool) => tool.name)).toEqual(['clock', 'calc__add']);
	});

	it('fall back to Settings, and to the built-in prompt, where the chat sets none', async () => {
		const chat = await newChat({ temperature: 1 });
		expect((await services.turnDeps(chat.id)).systemPrompt).toMatch(new RegExp(`^${DEFAULT_SYSTEM_PROMPT.replace(/[.]/g, '\\.')}`));
	});

	it('give the compaction of its own threshold, or none on its own, to every pass', async () => {
		const own = await newChat({ compaction: 40 });
		const off = await newChat({ compaction: 'off' });
		expect((await services.compactionDeps(own.id)).settings).toMatchObject({ automatic: true, threshold: 0.4, hygieneThreshold: 0.4, idleThreshold: 0.4 });
		expect((await services.compactionDeps(off.id)).settings.automatic).toBe(false);
		expect((await services.turnDeps(off.id)).compaction?.automatic).toBe(false);
		// What Settings say, for every other chat.
		expect((await services.compactionDeps((await newChat()).id)).settings).toMatchObject({ automatic: true, threshold: 0.8, hygieneThreshold: 0.6, idleThreshold: 0.7 });
	});

	it("count the chat's own system prompt in what every request adds", async () => {
		const chat = await newChat({ system_prompt: 'Answer as a pirate.' });
		expect((await services.compactionDeps(chat.id)).request.systemPrompt).toMatch(/^Answer as a pirate\./);
	});
});
