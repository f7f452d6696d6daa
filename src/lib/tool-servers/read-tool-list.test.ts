import { describe, expect, it } from 'vitest';
import { MAX_TOOL_TEXT_CHARS, MAX_TOOLS, readToolList } from './read-tool-list';

const schema = { type: 'object', properties: { a: { type: 'number' }, b: { type: 'number' } }, required: ['a', 'b'] };
const tool = (name: unknown, extra: Record<string, unknown> = {}) => ({ name, description: 'Adds two numbers', inputSchema: schema, ...extra });
/** An object schema nested `levels` deep as JSON (the root is level 1). */
const nested = (levels: number): Record<string, unknown> => {
	let value: Record<string, unknown> = { type: 'string' };
	for (let i = 3; i < levels; i++) value = { type: 'array', items: value };
	return { type: 'object', properties: { x: value } };
};

describe('readToolList', () => {
	it('reads a tools/list result, or its tools array, into tools with a name, a description and a schema', () => {
		const expected = { tools: [{ name: 'get-sum', description: 'Adds two numbers', inputSchema: schema }], notes: [] };
		expect(readToolList({ tools: [tool('get-sum')], nextCursor: undefined })).toEqual(expected);
		expect(readToolList([tool('get-sum')])).toEqual(expected);
	});

	it('says so when there is no list to read', () => {
		for (const raw of [null, 'tools', { tools: 'many' }, 42, undefined]) {
			expect(readToolList(raw)).toEqual({ tools: [], notes: ["The server's list of tools could not be read: it sent no list of tools."] });
		}
	});

	it('keeps 500 tools of 10,000, says how many more were left out', () => {
		const raw = { tools: Array.from({ length: 10_000 }, (_, i) => tool(`tool_${i}`, { description: `<b>Tool</b> ${i}`.repeat(50) })) };
		const list = readToolList(raw);
		expect(list.tools).toHaveLength(MAX_TOOLS);
		expect(list.tools.at(-1)?.name).toBe('tool_499');
		expect(list.notes).toEqual(['9,500 more tools were left out: a server may offer at most 500.']);
	});

	it('keeps 500 usable tools when broken ones come first', () => {
		const raw = [...Array.from({ length: 100 }, () => tool('')), ...Array.from({ length: 600 }, (_, i) => tool(`t${i}`))];
		const list = readToolList(raw);
		expect(list.tools).toHaveLength(MAX_TOOLS);
		expect(list.notes).toEqual([
			'100 tools were left out for want of a usable name: a name is 1 to 128 characters, none of them control characters.',
			'100 more tools were left out: a server may offer at most 500.'
		]);
	});

	it('reads 10,000 broken tools, naming the first few and counting the rest', () => {
		const raw = { tools: Array.from({ length: 10_000 }, (_, i) => tool(`t${i}`, { inputSchema: nested(40) })) };
		const list = readToolList(raw);
		expect(list.tools).toEqual([]);
		expect(list.notes).toHaveLength(12);
		expect(list.notes[0]).toBe('Tool "t0" was left out: inputSchema is nested more than 32 levels deep.');
		expect(list.notes[9]).toBe('Tool "t9" was left out: inputSchema is nested more than 32 levels deep.');
		expect(list.notes.slice(10)).toEqual(['990 more tools were left out for their input schemas.', '9,000 more tools were left out: a server may offer at most 500.']);
	});

	it('leaves out tools without a usable name, and counts them', () => {
		const list = readToolList([tool(''), tool(42), tool('x'.repeat(129)), tool('bell\u0007'), tool('back\u202ewards'), tool('line\nbreak'), 'tool', null, tool('x'.repeat(128))]);
		expect(list.tools.map((t) => t.name)).toEqual(['x'.repeat(128)]);
		expect(list.notes).toEqual(['8 tools were left out for want of a usable name: a name is 1 to 128 characters, none of them control characters.']);
	});

	it('keeps the first of two tools with the same name and says so', () => {
		const list = readToolList([tool('echo'), tool('echo', { description: 'Another' }), tool('add')]);
		expect(list.tools.map((t) => [t.name, t.description])).toEqual([
			['echo', 'Adds two numbers'],
			['add', 'Adds two numbers']
		]);
		expect(list.notes).toEqual(['Tool "echo" is listed more than once; the first is used.']);
	});

	it('keeps HTML in a description as text, and removes control and bidi-override characters', () => {
		const description = '<img src=x onerror="alert(1)"><script>alert(2)</script>\u0000Reads \u202efiles\u202c.\n\tLine two\u0007';
		const [read] = readToolList([tool('read', { description, title: '<b>Read</b>\u2066 files\u009b' })]).tools;
		expect(read.description).toBe('<img src=x onerror="alert(1)"><script>alert(2)</script>Reads files.\n\tLine two');
		expect(read.title).toBe('<b>Read</b> files');
	});

	it('cuts a 1 MB description to 2,000 characters ending in "…"', () => {
		const [read] = readToolList([tool('big', { description: 'word '.repeat(200_000) })]).tools;
		expect(read.description).toHaveLength(MAX_TOOL_TEXT_CHARS);
		expect(read.description.endsWith(' word…')).toBe(true);
	});

	it('never cuts a description inside an emoji', () => {
		const [read] = readToolList([tool('e', { description: `${'a'.repeat(1998)}🙂🙂` })]).tools;
		expect(read.description).toBe(`${'a'.repeat(1998)}…`);
	});

	it('takes the title from annotations when the tool has none, and leaves a non-text description empty', () => {
		const [read] = readToolList([tool('t', { description: { html: '<b>' }, annotations: { title: 'Fancy title' } })]).tools;
		expect(read).toEqual({ name: 't', title: 'Fancy title', description: '', inputSchema: schema });
	});

	it('gives a tool without a schema an empty object schema', () => {
		const [read] = readToolList([{ name: 'now' }]).tools;
		expect(read).toEqual({ name: 'now', description: '', inputSchema: { type: 'object', properties: {} } });
	});

	it('removes "$schema" and "$id" at the root, adds empty properties, and keeps everything else', () => {
		const inputSchema = { $schema: 'http://json-schema.org/draft-07/schema#', $id: 'urn:x', type: 'object', additionalProperties: false, $defs: { a: { $id: 'urn:a', type: 'string' } } };
		const [read] = readToolList([tool('t', { inputSchema })]).tools;
		expect(read.inputSchema).toEqual({ type: 'object', properties: {}, additionalProperties: false, $defs: { a: { $id: 'urn:a', type: 'string' } } });
	});

	it('gives providers a copy that shares nothing with what the server sent', () => {
		const inputSchema = { type: 'object', properties: { q: { type: 'string' } } };
		const [read] = readToolList([tool('t', { inputSchema })]).tools;
		inputSchema.properties.q.type = 'number';
		expect(read.inputSchema).toEqual({ type: 'object', properties: { q: { type: 'string' } } });
	});

	it.each([
		['a schema that is not an object', 'object', 'inputSchema must be a JSON Schema object, not the string "object"'],
		['null', null, 'inputSchema must be a JSON Schema object, not null'],
		['a schema of another type', { type: 'string' }, 'inputSchema.type must be "object", not the string "string"'],
		['a property that is not a schema', { type: 'object', properties: { q: 'string' } }, 'inputSchema.properties.q must be a JSON Schema object such as { "type": "string" }, not the string "string"'],
		['required naming a missing property', { type: 'object', properties: {}, required: ['q'] }, 'inputSchema.required names "q", which is not in inputSchema.properties'],
		['a schema over 64 KB', { type: 'object', description: 'x'.repeat(70_000) }, 'inputSchema is over 65,536 characters as JSON'],
		['a schema 33 levels deep', nested(33), 'inputSchema is nested more than 32 levels deep'],
		['a function inside', { type: 'object', properties: { q: { default: () => 1 } } }, 'inputSchema holds a function, which is not JSON data'],
		['a Date inside', { type: 'object', properties: { q: { default: new Date(0) } } }, 'inputSchema holds a Date, which is not JSON data'],
		['NaN inside', { type: 'object', properties: { q: { default: NaN } } }, 'inputSchema holds the number NaN, which JSON cannot carry'],
		['a "__proto__" key', JSON.parse('{"type":"object","properties":{"__proto__":{"type":"string"}}}'), 'inputSchema has a key named "__proto__", which is not accepted']
	])('leaves out a tool with %s, naming it in a note', (_case, inputSchema, problem) => {
		const list = readToolList([tool('bad', { inputSchema }), tool('good')]);
		expect(list.tools.map((t) => t.name)).toEqual(['good']);
		expect(list.notes).toEqual([`Tool "bad" was left out: ${problem}.`]);
	});

	it('keeps a schema 32 levels deep', () => {
		expect(readToolList([tool('deep', { inputSchema: nested(32) })]).tools).toHaveLength(1);
	});

	it('refuses an array of a billion holes without walking it', () => {
		const list = readToolList([tool('holes', { inputSchema: { type: 'object', enum: new Array(1e9) } })]);
		expect(list.notes).toEqual(['Tool "holes" was left out: inputSchema is over 65,536 characters as JSON.']);
	});
});
