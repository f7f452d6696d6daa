import { describe, expect, it } from 'vitest';
import { TOOL_NAME } from '../hooks/tool-schema';
import { exposedToolName, toolNamesFor } from './tool-names';

const none = new Set<string>();

describe('exposedToolName', () => {
	it('offers a tool as <server>__<tool> when that fits and is free', () => {
		expect(exposedToolName('everything', 'get-sum', none)).toBe('everything__get-sum');
	});

	it('makes every other character "_", so providers take the name', () => {
		const name = exposedToolName('My Server (local)', 'files.read', none);
		expect(name).toBe('My_Server_local___files_read');
		expect(name).toMatch(TOOL_NAME);
	});

	it('gives unicode and empty names a name providers take', () => {
		for (const [server, tool] of [
			['Météo', 'prévision'],
			['天气', '查询'],
			['', ''],
			['🙂', '\u202egnp.exe'],
			['a\u0000b', 'x\ny']
		]) {
			expect(exposedToolName(server, tool, none)).toMatch(TOOL_NAME);
		}
		expect(exposedToolName('Météo', 'prévision', none)).toBe('M_t_o__pr_vision');
	});

	it("cuts a long name to 64 characters, keeping the start of both names (most of the tool's) and ending in a hash", () => {
		const name = exposedToolName('a-very-long-server-name-that-goes-on-and-on', 'search_the_whole_knowledge_base_for_documents', none);
		expect(name).toMatch(TOOL_NAME);
		expect(name).toHaveLength(64);
		expect(name).toMatch(/^a-very-long-__search_the_whole_knowledge_base_for_documen_[0-9a-z]{6}$/);
	});

	it('gives two long names that share their first 64 characters different names', () => {
		const prefix = 'x'.repeat(70);
		const a = exposedToolName('server', `${prefix}_one`, none);
		const b = exposedToolName('server', `${prefix}_two`, none);
		expect(a).not.toBe(b);
		expect([a, b]).toEqual([expect.stringMatching(TOOL_NAME), expect.stringMatching(TOOL_NAME)]);
	});

	it('never gives a name that is taken, reserved names included', () => {
		const taken = new Set(['everything__echo']);
		const name = exposedToolName('everything', 'echo', taken);
		expect(name).toMatch(/^everything__echo_[0-9a-z]{6}$/);
		const more = new Set([...taken, name]);
		const third = exposedToolName('everything', 'echo', more);
		expect(third).not.toBe(name);
		expect(more.has(third)).toBe(false);
		expect(third).toMatch(TOOL_NAME);
	});

	it('gives the same name for the same input, every time', () => {
		const taken = new Set(['files__read']);
		expect(exposedToolName('files', 'read', taken)).toBe(exposedToolName('files', 'read', new Set(taken)));
		expect(exposedToolName('s'.repeat(100), 't'.repeat(100), none)).toBe(exposedToolName('s'.repeat(100), 't'.repeat(100), none));
	});
});

describe('toolNamesFor', () => {
	const servers = [
		{ serverId: 'srv-b', serverName: 'files', tools: ['read', 'write'] },
		{ serverId: 'srv-a', serverName: 'files', tools: ['read', 'list'] },
		{ serverId: 'srv-c', serverName: 'search', tools: ['web'] }
	];

	it('names every tool of every server, each name unique and one providers take', () => {
		const names = toolNamesFor(servers, none);
		expect(names.size).toBe(5);
		for (const name of names.keys()) expect(name).toMatch(TOOL_NAME);
		expect([...names.values()].map(({ serverId, tool }) => `${serverId}/${tool}`).sort()).toEqual(['srv-a/list', 'srv-a/read', 'srv-b/read', 'srv-b/write', 'srv-c/web']);
	});

	it('tells two servers with the same name and tool apart', () => {
		const names = toolNamesFor(servers, none);
		expect(names.get('files__read')).toEqual({ serverId: 'srv-a', tool: 'read' });
		const other = [...names].find(([, { serverId, tool }]) => serverId === 'srv-b' && tool === 'read');
		expect(other?.[0]).toMatch(/^files__read_[0-9a-z]{6}$/);
		expect(names.get('files__write')).toEqual({ serverId: 'srv-b', tool: 'write' });
	});

	it('never takes a reserved name (a plugin tool)', () => {
		const names = toolNamesFor(servers, new Set(['search__web']));
		expect(names.has('search__web')).toBe(false);
		expect([...names].find(([, t]) => t.tool === 'web')?.[0]).toMatch(/^search__web_[0-9a-z]{6}$/);
	});

	it('gives the same names for the same servers, whatever the order they and their tools come in', () => {
		const first = [...toolNamesFor(servers, none)];
		const shuffled = servers.map((s) => ({ ...s, tools: [...s.tools].reverse() })).reverse();
		expect([...toolNamesFor(shuffled, none)].sort()).toEqual([...first].sort());
		expect([...toolNamesFor(servers, none)]).toEqual(first);
	});

	it('names a tool a server lists twice once', () => {
		const names = toolNamesFor([{ serverId: 's', serverName: 'x', tools: ['a', 'a'] }], none);
		expect([...names.keys()]).toEqual(['x__a']);
	});

	it('keeps names unique when unicode names map to the same characters', () => {
		const names = toolNamesFor([{ serverId: 's', serverName: 'w', tools: ['天气', '新闻', '__', '_'] }], none);
		expect(names.size).toBe(4);
		expect(new Set([...names.values()].map((t) => t.tool))).toEqual(new Set(['天气', '新闻', '__', '_']));
	});

	it('names 10,000 tools of servers of one name, each apart', () => {
		const many = Array.from({ length: 20 }, (_, s) => ({
			serverId: `id-${s}`,
			serverName: 'same name',
			tools: Array.from({ length: 500 }, (_, t) => `tool_${t}`)
		}));
		const names = toolNamesFor(many, none);
		expect(names.size).toBe(10_000);
		expect(new Set([...names.values()].map(({ serverId, tool }) => `${serverId}/${tool}`)).size).toBe(10_000);
	});
});
