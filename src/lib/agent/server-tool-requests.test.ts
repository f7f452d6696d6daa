// A tool server's tools as each wire format carries them: the name the model knows (unique,
// within every provider's rule), the description as text, and the JSON Schema the server gave
// (read for providers: an object at the root, the server's `$schema` and `$id` left out).
import { describe, expect, it } from 'vitest';
import { buildWireRequest } from '../providers/wire-request';
import type { WireTarget } from '../providers/wire-target';
import { readToolList } from '../tool-servers/read-tool-list';
import { ServerTools } from '../tool-servers/server-tools';

const listed = readToolList([
	{
		name: 'search.docs/v2 (beta)',
		description: 'Finds <b>docs</b>',
		inputSchema: { $schema: 'https://json-schema.org/draft/2020-12/schema', $id: 'x', type: 'object', properties: { q: { type: 'string', minLength: 1 } }, required: ['q'] }
	}
]);
const servers = new ServerTools({
	calls: async () => ({ call: async () => ({ isError: false, forModel: '', parts: [], images: [] }), cancel: () => {} }),
	configs: () => [{ id: 's', url: 'https://x.test/mcp', authorization: '', added_at: 0, disabled_tools: [], always_allowed: [] }],
	approve: async () => 'once',
	allowAlways: async () => {},
	timeoutMs: () => 1000,
	onProgress: () => {}
});
servers.setConnected('s', { name: 'Docs · Server', version: '1', instructions: '' }, listed.tools);
const [schema] = servers.schemas(new Set(['search']));
const request = { model: 'm', messages: [{ role: 'user' as const, content: 'find' }], tools: [schema] };
const READ_SCHEMA = { type: 'object', properties: { q: { type: 'string', minLength: 1 } }, required: ['q'] };

describe("a tool server's tool in each wire format", () => {
	it('has a name every provider takes and the schema as the server gave it, for providers', () => {
		expect(schema.name).toMatch(/^[a-zA-Z0-9_-]{1,64}$/);
		expect(schema.description).toBe('Finds <b>docs</b>');
		expect(schema.parameters).toEqual(READ_SCHEMA);
	});

	it.each<[WireTarget['api'], (body: Record<string, unknown>) => unknown]>([
		['chat-completions', (body) => (body.tools as Array<{ function: unknown }>)[0].function],
		['responses', (body) => (body.tools as unknown[])[0]],
		['anthropic', (body) => (body.tools as unknown[])[0]]
	])('goes out in %s', (api, tool) => {
		const wire = buildWireRequest({ api, url: 'https://p.test', keyed: true }, request);
		const sent = tool(wire.body as Record<string, unknown>) as Record<string, unknown>;
		expect(sent.name).toBe(schema.name);
		expect(sent.description).toBe('Finds <b>docs</b>');
		expect(sent[api === 'anthropic' ? 'input_schema' : 'parameters']).toEqual(READ_SCHEMA);
	});
});
