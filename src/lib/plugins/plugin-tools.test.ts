import 'fake-indexeddb/auto';
import { describe, expect, it } from 'vitest';
import { HookBus } from '../hooks/hook-bus';
import { ToolRegistry, type ToolDefinitionInput } from './plugin-tools';
import { makeHost } from './test-host';

const handler = () => 'ok';
const tool = (extra: Partial<ToolDefinitionInput> = {}): ToolDefinitionInput => ({
	plugin_id: 'finder',
	name: 'search',
	description: 'Searches the notes',
	parameters: { type: 'object', properties: { q: { type: 'string' } }, required: ['q'] },
	handler,
	...extra
});

describe('ToolRegistry.add', () => {
	it('accepts a JSON Schema object, or none (no arguments), and sends providers its own copy', () => {
		const registry = new ToolRegistry(new HookBus());
		const parameters = { type: 'object', properties: { q: { type: 'string', description: 'what to find' } }, required: ['q'] };
		registry.add(tool({ parameters }));
		registry.add(tool({ name: 'now', description: undefined, parameters: undefined }));
		registry.add(tool({ name: 'Ping_2-x', parameters: { type: 'object' } }));
		parameters.required.push('later');
		expect(registry.schemas()).toEqual([
			{ name: 'search', description: 'Searches the notes', parameters: { type: 'object', properties: { q: { type: 'string', description: 'what to find' } }, required: ['q'] } },
			{ name: 'now', description: '', parameters: { type: 'object', properties: {} } },
			{ name: 'Ping_2-x', description: 'Searches the notes', parameters: { type: 'object' } }
		]);
	});

	it.each([
		['a property given as a bare type name', { parameters: { type: 'object', properties: { q: 'string' } } }, 'tool "search": parameters.properties.q must be a JSON Schema object such as { "type": "string" }, not the string "string".'],
		['a schema that is not an object schema', { parameters: { type: 'string' } }, 'tool "search": parameters.type must be "object", not the string "string".'],
		['a schema with no type', { parameters: { properties: {} } }, 'tool "search": parameters.type must be "object", not undefined.'],
		['parameters that are not an object', { parameters: ['q'] }, 'tool "search": parameters must be a JSON Schema object, not an array.'],
		['properties that are not an object', { parameters: { type: 'object', properties: [{ type: 'string' }] } }, 'parameters.properties must be an object, not an array.'],
		['required that is not an array', { parameters: { type: 'object', properties: { q: {} }, required: 'q' } }, 'parameters.required must be an array of property names, not the string "q".'],
		['required with a non-string', { parameters: { type: 'object', properties: { q: {} }, required: [1] } }, 'parameters.required must list property names (strings), not 1.'],
		['required naming a missing property', { parameters: { type: 'object', properties: { q: {} }, required: ['query'] } }, 'parameters.required names "query", which is not in parameters.properties.'],
		['required with no properties', { parameters: { type: 'object', required: ['q'] } }, 'parameters.required names "q", which is not in parameters.properties.'],
		['a function inside the schema', { parameters: { type: 'object', properties: { q: { type: 'string', default: () => 'x' } } } }, 'parameters must be plain JSON data'],
		['a name with a space', { name: 'web search' }, 'tool "web search": the name must be 1–64 letters, digits, "_" or "-".'],
		['a name longer than 64', { name: 'x'.repeat(65) }, 'the name must be 1–64 letters'],
		['no name', { name: undefined }, 'Plugin "finder" cannot register a tool named undefined: the name must be'],
		['an empty name', { name: '' }, 'tool "": the name must be'],
		['a description that is not a string', { description: 42 }, 'tool "search": description must be a string, not 42.'],
		['no handler', { handler: undefined }, 'tool "search": it needs a handler function.']
	])('refuses %s, naming the plugin, the tool and the problem', (_case, extra, message) => {
		const registry = new ToolRegistry(new HookBus());
		expect(() => registry.add(tool(extra))).toThrow(message);
		expect(() => registry.add(tool(extra))).toThrow(/^Plugin "finder" cannot register /);
		expect(registry.list()).toEqual([]);
	});

	it('refuses a name another plugin took', () => {
		const registry = new ToolRegistry(new HookBus());
		registry.add(tool());
		expect(() => registry.add(tool({ plugin_id: 'other' }))).toThrow('A tool named "search" is already registered by plugin "finder".');
	});
});

describe('ctx.register_tool', () => {
	it('refuses a malformed tool inside register(ctx): the error shows on the plugin and nothing stays registered', async () => {
		const { db, hooks, tools, served, host, row, close } = makeHost();
		try {
			served['https://x.test/finder.js'] = {
				body: `export function register(ctx) {
					ctx.register_hook('post_compaction', () => {});
					ctx.register_tool({ name: 'search', description: 'Search', parameters: { type: 'object', properties: { q: 'string' } }, handler: () => '' });
				}`
			};
			const outcome = await host.load(await row('https://x.test/finder.js'));
			const message = 'register(ctx) threw: Plugin "finder" cannot register tool "search": parameters.properties.q must be a JSON Schema object';
			expect(outcome.ok).toBe(false);
			if (!outcome.ok) expect(outcome.error).toContain(message);
			expect((await db.plugins.get('finder'))?.last_error).toContain(message);
			expect(tools.list()).toEqual([]);
			expect(hooks.listRegistrations()).toEqual([]);
		} finally {
			await close();
		}
	});

	it('passes what the plugin gave unconverted, so a missing name is refused rather than registered as "undefined"', async () => {
		const { tools, served, host, row, close } = makeHost();
		try {
			served['https://x.test/noname.js'] = { body: `export function register(ctx) { ctx.register_tool({ handler: () => '' }); }` };
			const outcome = await host.load(await row('https://x.test/noname.js'));
			expect(outcome.ok).toBe(false);
			if (!outcome.ok) expect(outcome.error).toContain('Plugin "noname" cannot register a tool named undefined');
			expect(tools.list()).toEqual([]);
		} finally {
			await close();
		}
	});
});
