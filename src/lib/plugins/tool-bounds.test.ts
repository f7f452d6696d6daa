// How large a plugin tool may be: its description and its parameters (size as JSON, and depth)
// are bounded where it is registered, by a look that costs at most the bound; a plugin trying
// to register a hundred tools of a megabyte each has every one refused at its line, its row
// counts them, and none reaches the page, in the page and isolated alike, and from a hostile
// context that sends them raw.
import 'fake-indexeddb/auto';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { HookBus } from '../hooks/hook-bus';
import { PluginHost } from './plugin-host';
import { ToolRegistry } from './plugin-tools';
import { isolatedTestRunner, makeHost, RUNNER_KINDS } from './test-host';
import { MAX_TOOL_DESCRIPTION_CHARS, MAX_TOOL_PARAMETERS_CHARS, MAX_TOOL_PARAMETERS_DEPTH, toolBoundsProblem } from './tool-bounds';

/** A schema of `properties` string properties, each with a description of `chars` characters. */
function schema(properties: number, chars = 10): Record<string, unknown> {
	const entries = Array.from({ length: properties }, (_, i) => [`p${i}`, { type: 'string', description: 'd'.repeat(chars) }]);
	return { type: 'object', properties: Object.fromEntries(entries) };
}

/** `levels` objects, each the only property of the one around it. */
function nested(levels: number): Record<string, unknown> {
	let inner: Record<string, unknown> = { type: 'string' };
	for (let level = 1; level < levels; level++) inner = { type: 'object', properties: { x: inner } };
	return inner;
}

describe('the bounds of a tool', () => {
	it('takes a tool at every bound, and words what is over each', () => {
		// As large as allowed: parameters of 16 KB exactly as JSON.
		const big = schema(1, 0);
		const filler = MAX_TOOL_PARAMETERS_CHARS - JSON.stringify(big).length;
		(big.properties as Record<string, { description: string }>).p0.description = 'd'.repeat(filler);
		expect(JSON.stringify(big)).toHaveLength(MAX_TOOL_PARAMETERS_CHARS);
		expect(toolBoundsProblem({ name: 'x'.repeat(64), description: 'd'.repeat(MAX_TOOL_DESCRIPTION_CHARS), parameters: big })).toBeNull();
		expect(toolBoundsProblem({ name: 'deep', parameters: nested(8) })).toBeNull();
		(big.properties as Record<string, { description: string }>).p0.description += 'd';
		expect(toolBoundsProblem({ name: 'big', parameters: big })).toBe("its parameters take more than 16 KB as JSON, the most a tool's parameters may take");
		expect(toolBoundsProblem({ name: 'long', description: 'd'.repeat(4_001) })).toBe("its description has 4,001 characters, over the 4,000 a tool's description may have");
		expect(toolBoundsProblem({ name: 'x'.repeat(1_000_000) })).toBe("its name has 1,000,000 characters, over the 64 a tool's name may have");
		// The schema object itself is the first level; each property's schema two more.
		expect(MAX_TOOL_PARAMETERS_DEPTH).toBe(16);
		expect(toolBoundsProblem({ name: 'deep', parameters: nested(9) })).toBe("its parameters are nested more than 16 levels deep, the most a tool's parameters may be");
	});

	it('stops looking at the bound: a list of a billion entries or a cycle costs no more than 16 KB of it', () => {
		const cyclic: Record<string, unknown> = { type: 'object', properties: {} };
		(cyclic.properties as Record<string, unknown>).self = cyclic;
		const sparse = { type: 'object', enum: new Array(1_000_000_000) };
		const long = { type: 'object', enum: Array.from({ length: 1_000_000 }, (_, i) => i) };
		const started = performance.now();
		expect(toolBoundsProblem({ name: 'sparse', parameters: sparse })).toMatch(/more than 16 KB/);
		expect(toolBoundsProblem({ name: 'long', parameters: long })).toMatch(/more than 16 KB/);
		expect(toolBoundsProblem({ name: 'cycle', parameters: cyclic })).toMatch(/nested more than 16 levels/);
		expect(performance.now() - started).toBeLessThan(50);
	});

	it('refuses in the page’s registry what is over them, naming the plugin and the tool', () => {
		const registry = new ToolRegistry(new HookBus());
		const add = (parameters: unknown) => registry.add({ plugin_id: 'bulky', name: 'huge', description: 'Huge', parameters, handler: () => '' });
		expect(() => add(schema(1, 1_000_000))).toThrow('Plugin "bulky" cannot register tool "huge": its parameters take more than 16 KB as JSON, the most a tool\'s parameters may take.');
		expect(registry.list()).toEqual([]);
		add(schema(5));
		expect(registry.list().map((tool) => tool.name)).toEqual(['huge']);
	});
});

/** A plugin that tries 100 tools of about 1 MB each, keeps what it was told, and registers one small tool. */
const BULKY = `export function register(ctx) {
	ctx.register_tool({ name: 'small', description: 'Small', parameters: { type: 'object', properties: { q: { type: 'string' } } }, handler: () => 'ok' });
	const refusals = [];
	const properties = {};
	for (let i = 0; i < 1000; i++) properties['p' + i] = { type: 'string', description: 'd'.repeat(1000) };
	for (let i = 0; i < 100; i++) {
		try {
			ctx.register_tool({ name: 'huge_' + i, description: 'Huge', parameters: { type: 'object', properties }, handler: () => 'never' });
		} catch (error) {
			refusals.push(error.message);
		}
	}
	ctx.register_command('refusals', () => refusals.length + ' refused; the first: ' + refusals[0]);
}`;

describe.each(RUNNER_KINDS)('a plugin registering 100 tools of a megabyte (%s)', (kind) => {
	let t: ReturnType<typeof makeHost>;
	afterEach(async () => {
		await t.close();
	});

	it('has each refused at its line, and only its small tool reaches the page', async () => {
		t = makeHost(5_000, {}, undefined, kind);
		t.served['https://x.test/bulky.js'] = { body: BULKY };
		const outcome = await t.host.load(await t.row('https://x.test/bulky.js'));
		expect(outcome.ok).toBe(true);
		expect(t.tools.schemas().map((tool) => tool.name)).toEqual(['small']);
		const said = await t.commands.execute('/refusals', { session_id: 's', session_key: 'web:default:s', platform: 'web', source: null });
		expect(said.output).toBe(
			'100 refused; the first: Plugin "bulky" cannot register tool "huge_0": its parameters take more than 16 KB as JSON, the most a tool\'s parameters may take.'
		);
		// Isolated, its row counts them (in the page, the plugin is the app's own code: its error is all there is).
		if (kind === 'isolated') {
			await vi.waitFor(() => expect(t.host.budgets.usage('bulky')).toEqual(expect.objectContaining({ toolsRefused: 100, lastTool: expect.stringContaining('tool "huge_99"') })));
		}
	});
});

describe('a hostile context sending an oversized tool raw', () => {
	it('has it refused by the broker, counted on its row, and never reaches the page', async () => {
		const t = makeHost(5_000);
		const contexts: MessagePort[] = [];
		const host = new PluginHost({
			db: t.db, hooks: t.hooks, commands: t.commands, tools: t.tools, timeoutMs: () => 5_000, fetchImpl: t.fetchImpl,
			...isolatedTestRunner(t.db.name, { log: t.host.logBook, watchdog: { pingEveryMs: 60_000, stuckAfterMs: 600_000, busyWindowMs: 600_000, busyMedianMs: 600_000 } }, (port) => contexts.push(port)),
			logger: { info: () => {}, warn: () => {}, error: () => {} }
		});
		try {
			t.served['https://x.test/raw.js'] = { body: 'export function register(ctx) { ctx.register_command("raw", () => "x"); }' };
			expect((await host.load(await t.row('https://x.test/raw.js'))).ok).toBe(true);
			const answers: unknown[] = [];
			contexts[0].addEventListener('message', (event) => answers.push(event.data));
			contexts[0].postMessage({ t: 'register', id: 900, record: { kind: 'tool', handle: 77, name: 'raw_huge', description: 'Raw', parameters: schema(1, 100_000) } });
			await vi.waitFor(() => expect(answers).toContainEqual(expect.objectContaining({ t: 'answer', id: 900, ok: false, error: expect.objectContaining({ message: expect.stringContaining('cannot register tool "raw_huge": its parameters take more than 16 KB') }) })));
			expect(t.tools.list()).toEqual([]);
			await vi.waitFor(() => expect(host.budgets.usage('raw').toolsRefused).toBe(1));
		} finally {
			host.close();
			await t.close();
		}
	});
});
