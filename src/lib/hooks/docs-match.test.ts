// Keeps what plugin authors read in step with the hook contract: the guide's hook cards, the
// published plugin-api.d.ts and the example plugins are all checked against hook-map.ts.
import { readFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { beforeAll, describe, expect, it } from 'vitest';
import { HookBus } from './hook-bus';
import { HOOK_KINDS, HOOK_NAMES, type HookPayload } from './hook-map';
import type { HookLogEntry } from './run-hook';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '../../..');
const HOOK_MAP = resolve(ROOT, 'src/lib/hooks/hook-map.ts');
const API = resolve(ROOT, 'static/plugin-api.d.ts');
const GUIDE = resolve(ROOT, 'docs/plugins.md');
const EXAMPLES = ['conventions', 'session-index', 'whoami'].map((name) => resolve(ROOT, `static/plugins/${name}.js`));
// Not on disk: the compiler host below serves it, so its type assertions compare the two maps.
const EQUALITY_CHECK = resolve(ROOT, 'src/lib/hooks/__docs-match-equality__.ts');

// ---------------------------------------------------------------------------------------------
// What the TypeScript compiler says about the contract, the published types and the examples
// ---------------------------------------------------------------------------------------------

interface Field {
	name: string;
	optional: boolean;
	type: string;
}

interface HookSpecInfo {
	kind: string;
	payload: string;
	result: string;
	fields: Field[];
}

const ASPECTS = ['kind', 'payload', 'result'] as const;

function equalityCheckSource(): { text: string; labels: string[] } {
	const labels = ['the hook names'];
	const lines = [
		`import type { HookMap as App } from './hook-map';`,
		`import type { HookMap as Api } from '../../../static/plugin-api';`,
		`type Equals<X, Y> = (<T>() => T extends X ? 1 : 2) extends (<T>() => T extends Y ? 1 : 2) ? true : false;`,
		`type Expect<T extends true> = T;`,
		`export type Check0 = Expect<Equals<keyof App, keyof Api>>;`
	];
	for (const hook of HOOK_NAMES) {
		for (const aspect of ASPECTS) {
			labels.push(`${hook} ${aspect}`);
			lines.push(`export type Check${labels.length - 1} = Expect<Equals<App['${hook}']['${aspect}'], Api['${hook}']['${aspect}']>>;`);
		}
	}
	return { text: lines.join('\n'), labels };
}

function compile(equalityText: string): ts.Program {
	const options: ts.CompilerOptions = {
		strict: true,
		noEmit: true,
		allowJs: true,
		checkJs: true,
		skipLibCheck: true,
		target: ts.ScriptTarget.ES2022,
		module: ts.ModuleKind.ESNext,
		moduleResolution: ts.ModuleResolutionKind.Bundler,
		lib: ['lib.es2022.d.ts', 'lib.dom.d.ts'],
		types: []
	};
	const host = ts.createCompilerHost(options, true);
	const { getSourceFile, fileExists, readFile } = host;
	host.getSourceFile = (name, language, ...rest) =>
		name === EQUALITY_CHECK ? ts.createSourceFile(name, equalityText, language, true) : getSourceFile.call(host, name, language, ...rest);
	host.fileExists = (name) => name === EQUALITY_CHECK || fileExists.call(host, name);
	host.readFile = (name) => (name === EQUALITY_CHECK ? equalityText : readFile.call(host, name));
	return ts.createProgram([HOOK_MAP, API, EQUALITY_CHECK, ...EXAMPLES], options, host);
}

/** Every hook of the `HookMap` interface in `file`, as the compiler resolves it. */
function readHookMap(program: ts.Program, file: string): Map<string, HookSpecInfo> {
	const checker = program.getTypeChecker();
	const source = program.getSourceFile(file);
	const decl = source?.statements.find(
		(s): s is ts.InterfaceDeclaration => ts.isInterfaceDeclaration(s) && s.name.text === 'HookMap'
	);
	if (!decl) throw new Error(`No HookMap interface in ${file}`);
	const typeOf = (owner: ts.Type, name: string) => checker.getTypeOfSymbol(owner.getProperty(name)!);
	const hooks = new Map<string, HookSpecInfo>();
	for (const hook of checker.getTypeAtLocation(decl).getProperties()) {
		const spec = checker.getTypeOfSymbol(hook);
		const payload = typeOf(spec, 'payload');
		const fields = payload.getProperties().map((prop): Field => {
			const declaration = prop.valueDeclaration;
			if (!declaration || !ts.isPropertySignature(declaration) || !declaration.type) {
				throw new Error(`${hook.name}: field ${prop.name} has no written type`);
			}
			return {
				name: prop.name,
				optional: (prop.flags & ts.SymbolFlags.Optional) !== 0,
				type: normalizeType(declaration.type.getText())
			};
		});
		hooks.set(hook.name, {
			kind: checker.typeToString(typeOf(spec, 'kind')).replace(/"/g, ''),
			payload: checker.typeToString(payload),
			result: checker.typeToString(typeOf(spec, 'result')),
			fields
		});
	}
	return hooks;
}

function normalizeType(text: string): string {
	return text.replace(/\s+/g, ' ').trim();
}

function diagnosticsOf(program: ts.Program, file: string): ts.Diagnostic[] {
	const source = program.getSourceFile(file);
	if (!source) throw new Error(`The compiler did not read ${file}`);
	return [...program.getSyntacticDiagnostics(source), ...program.getSemanticDiagnostics(source)];
}

function describeDiagnostic(d: ts.Diagnostic): string {
	const where = d.file && d.start !== undefined ? d.file.getLineAndCharacterOfPosition(d.start) : undefined;
	const at = where ? `${d.file!.fileName.slice(ROOT.length + 1)}:${where.line + 1}` : '';
	return `${at} ${ts.flattenDiagnosticMessageText(d.messageText, '\n')}`;
}

// ---------------------------------------------------------------------------------------------
// What the guide says
// ---------------------------------------------------------------------------------------------

interface Card {
	heading: string;
	body: string;
}

/** `### \`hook\` (kind)` sections, keyed by hook name. */
function readCards(markdown: string): Map<string, Card> {
	const cards = new Map<string, Card>();
	const sections = markdown.split(/^(?=#{1,3} )/m);
	for (const section of sections) {
		const match = /^### `([a-z_]+)`(.*)\n/.exec(section);
		if (match) cards.set(match[1], { heading: section.slice(0, section.indexOf('\n')), body: section });
	}
	return cards;
}

/** Rows of the card's field table: | `name` or `name?` | `type` | meaning | */
function readCardFields(body: string): Field[] {
	const rows = body.matchAll(/^\| `([a-z_]+)(\?)?` \| `((?:[^`])+)` \|/gm);
	return [...rows].map(([, name, optional, type]) => ({
		name,
		optional: optional === '?',
		type: normalizeType(type.replace(/\\\|/g, '|'))
	}));
}

/** The anchor GitHub gives a heading. */
function slug(heading: string): string {
	return heading
		.replace(/^#+\s*/, '')
		.toLowerCase()
		.replace(/[^\p{L}\p{N}\s_-]/gu, '')
		.replace(/\s/g, '-');
}

// ---------------------------------------------------------------------------------------------

let program: ts.Program;
let appHooks: Map<string, HookSpecInfo>;
let equalityLabels: string[];
const guide = readFileSync(GUIDE, 'utf8');
const cards = readCards(guide);

beforeAll(() => {
	const equality = equalityCheckSource();
	equalityLabels = equality.labels;
	program = compile(equality.text);
	appHooks = readHookMap(program, HOOK_MAP);
}, 60_000);

describe('the hook contract as the compiler reads it', () => {
	it('lists the same hooks and kinds as the runtime table', () => {
		expect([...appHooks.keys()].sort()).toEqual([...HOOK_NAMES].sort());
		for (const name of HOOK_NAMES) expect(appHooks.get(name)?.kind, name).toBe(HOOK_KINDS[name]);
		expect(appHooks.get('on_session_delete')?.fields.map((f) => f.name)).toContain('deleted_ids');
	});
});

describe('docs/plugins.md', () => {
	it('has a card for every hook and none for a hook that does not exist', () => {
		expect([...cards.keys()].sort()).toEqual([...HOOK_NAMES].sort());
	});

	it.each(HOOK_NAMES)('the %s card states its kind in the heading and the card', (name) => {
		const card = cards.get(name)!;
		expect(card.heading).toBe(`### \`${name}\` (${HOOK_KINDS[name]})`);
		expect(card.body).toContain(`- **Kind:** ${HOOK_KINDS[name]}.`);
	});

	it.each(HOOK_NAMES)('the %s card lists exactly the payload fields, with their types', (name) => {
		const card = cards.get(name)!;
		const spec = appHooks.get(name)!;
		expect(card.body).toContain(`- **Payload:** \`${spec.payload}\``);
		expect(readCardFields(card.body)).toEqual(spec.fields);
	});

	it.each(HOOK_NAMES)('the %s card says what its return value does', (name) => {
		const card = cards.get(name)!;
		const spec = appHooks.get(name)!;
		if (HOOK_KINDS[name] === 'observer') {
			expect(spec.result).toBe('unknown');
			expect(card.body).toContain('- **Returns:** ignored.');
		} else {
			expect(card.body).toContain(`- **Returns:** \`${spec.result}\``);
		}
		expect(card.body).toMatch(new RegExp("```js\\n[^`]*ctx\\.register_hook\\('" + name + "'"));
	});

	it('links every hook from the overview table, with its kind, to its card', () => {
		for (const name of HOOK_NAMES) {
			const anchor = slug(cards.get(name)!.heading);
			expect(guide, name).toContain(`| [\`${name}\`](#${anchor}) | ${HOOK_KINDS[name]} |`);
		}
	});
});

describe('static/plugin-api.d.ts', () => {
	const api = readFileSync(API, 'utf8');

	it.each(HOOK_NAMES)('mentions %s', (name) => {
		expect(api).toContain(`${name}:`);
	});

	it('declares a HookMap identical to the app’s, hook by hook: kind, payload and result', () => {
		const failing = diagnosticsOf(program, EQUALITY_CHECK).map((d) => {
			const line = d.file && d.start !== undefined ? d.file.getLineAndCharacterOfPosition(d.start).line : -1;
			// Lines 0–3 are imports and helpers; line 4 + i is check i.
			return equalityLabels[line - 4] ?? describeDiagnostic(d);
		});
		expect(failing).toEqual([]);
	});

	it('spells every payload field as the app does', () => {
		const apiHooks = readHookMap(program, API);
		for (const name of HOOK_NAMES) expect(apiHooks.get(name), name).toEqual(appHooks.get(name));
	});

	it('compiles cleanly and so do the example plugins that use it', () => {
		const problems = [API, ...EXAMPLES].flatMap((file) => diagnosticsOf(program, file)).map(describeDiagnostic);
		expect(problems).toEqual([]);
	});
});

// ---------------------------------------------------------------------------------------------
// The example plugins, loaded as the app loads them and driven through the real hook bus
// ---------------------------------------------------------------------------------------------

type Handler = (raw_args: string, context: Record<string, unknown>) => unknown;
interface Command {
	handler: Handler;
	options: { description?: string; args_hint?: string };
}
type PluginModule = {
	manifest?: { name: string; version: string; description?: string };
	register?: (ctx: unknown) => void;
	default?: { register: (ctx: unknown) => void };
};

const BUILT_INS = ['help', 'new', 'reset', 'title', 'usage', 'compress', 'exit', 'archive'];

// The app imports a plugin from its fetched source, not its path: relative imports would fail.
async function importExample(name: string): Promise<PluginModule> {
	const source = readFileSync(resolve(ROOT, `static/plugins/${name}.js`), 'utf8');
	return import(/* @vite-ignore */ `data:text/javascript;base64,${Buffer.from(source).toString('base64')}`);
}

/** A stand-in for the app around one plugin: a real HookBus, an in-memory store, commands. */
async function start(name: string) {
	const mod = await importExample(name);
	const calls: HookLogEntry[] = [];
	const warnings: string[] = [];
	const bus = new HookBus({ record: (entry) => calls.push(entry), logger: { warn: (m) => void warnings.push(m) } });
	const store = new Map<string, unknown>();
	const commands = new Map<string, Command>();
	const ctx = Object.freeze({
		plugin_id: name,
		manifest: mod.manifest ? Object.freeze({ ...mod.manifest }) : null,
		register_hook: (hook: string, callback: unknown) => bus.register(name, hook, callback),
		register_command: (command: string, handler: Handler, options = {}) => {
			if (!/^[a-z0-9][a-z0-9_-]*$/.test(command) || BUILT_INS.includes(command) || commands.has(command)) {
				throw new Error(`Command name "${command}" is refused.`);
			}
			commands.set(command, { handler, options });
			return () => void commands.delete(command);
		},
		register_tool: () => {
			throw new Error('No example registers a tool.');
		},
		storage: {
			get: async (key: string) => structuredClone(store.get(key)),
			set: async (key: string, value: unknown) => void store.set(key, structuredClone(value)),
			delete: async (key: string) => void store.delete(key),
			keys: async (prefix = '') => [...store.keys()].filter((key) => key.startsWith(prefix))
		},
		log: { info() {}, warn() {}, error() {} },
		has_plugin: () => false
	});
	const register = mod.register ?? mod.default?.register;
	expect(register, `${name} exports register`).toBeTypeOf('function');
	register!(ctx);
	return {
		mod,
		bus,
		store,
		commands,
		hooks: () => bus.listRegistrations().map((r) => r.hook),
		/** Every plugin callback so far ran to completion (no throw, no timeout). */
		allOk: () => {
			expect(warnings).toEqual([]);
			expect(calls.filter((c) => c.outcome !== 'ok')).toEqual([]);
		}
	};
}

const SOURCE = {
	platform: 'web',
	user_id: 'u-7f3a',
	user_name: 'Ada',
	chat_id: 'web:default:s1',
	thread_id: 's1',
	profile: 'default'
};

function turn(session_id: string): HookPayload<'pre_llm_call'> {
	return {
		session_id,
		session_key: `web:default:${session_id}`,
		user_message: 'next question',
		conversation_history: [],
		is_first_turn: false,
		model: 'offline',
		platform: 'web',
		profile: 'default'
	};
}

function compaction(session_id: string): HookPayload<'post_compaction'> {
	return {
		session_id,
		old_session_id: '',
		kind: 'summarize',
		reason: 'pre_api',
		before_tokens: 90_000,
		after_tokens: 12_000,
		messages_removed: 40,
		profile: 'default',
		platform: 'web'
	};
}

function deletion(session_id: string, extra: Partial<HookPayload<'on_session_delete'>> = {}): HookPayload<'on_session_delete'> {
	return { session_id, reason: 'delete', profile: 'default', sessions_dir: null, ...extra };
}

describe('static/plugins/conventions.js', () => {
	it('has the manifest and hooks the guide describes', async () => {
		const plugin = await start('conventions');
		expect(plugin.mod.manifest).toMatchObject({ name: 'conventions', version: '1.0.0' });
		expect(plugin.mod.manifest?.description).toBeTruthy();
		expect(plugin.hooks().sort()).toEqual(['on_session_delete', 'post_compaction', 'pre_llm_call']);
	});

	it('injects the conventions once after a compaction, and not before or again', async () => {
		const plugin = await start('conventions');
		expect(await plugin.bus.collect('pre_llm_call', turn('s1'))).toEqual([]);

		await plugin.bus.notify('post_compaction', compaction('s1'));
		const first = await plugin.bus.collect('pre_llm_call', turn('s1'));
		expect(first).toHaveLength(1);
		expect(first[0]).toMatchObject({ plugin_id: 'conventions' });
		expect(first[0].text).toMatch(/conventions/i);

		expect(await plugin.bus.collect('pre_llm_call', turn('s1'))).toEqual([]);
		plugin.allOk();
	});

	it('keeps the mark per session, in storage, until that session’s next turn', async () => {
		const plugin = await start('conventions');
		await plugin.bus.notify('post_compaction', compaction('s1'));
		expect([...plugin.store.keys()]).toEqual(['pending:s1']);
		expect(await plugin.bus.collect('pre_llm_call', turn('s2'))).toEqual([]);
		expect(await plugin.bus.collect('pre_llm_call', turn('s1'))).toHaveLength(1);
		expect(plugin.store.size).toBe(0);
		plugin.allOk();
	});

	it('drops the marks of deleted sessions, with or without deleted_ids', async () => {
		const plugin = await start('conventions');
		for (const id of ['a', 'b', 'c', 'd']) await plugin.bus.notify('post_compaction', compaction(id));
		await plugin.bus.notify('on_session_delete', deletion('a', { deleted_ids: ['a', 'b'] }));
		await plugin.bus.notify('on_session_delete', deletion('c'));
		expect([...plugin.store.keys()]).toEqual(['pending:d']);
		expect(await plugin.bus.collect('pre_llm_call', turn('a'))).toEqual([]);
		plugin.allOk();
	});
});

describe('static/plugins/session-index.js', () => {
	const answer = (session_id: string, user_message: string): HookPayload<'post_llm_call'> => ({
		session_id,
		user_message,
		assistant_response: 'ok',
		model: 'offline',
		usage: null
	});
	const started = (session_id: string): HookPayload<'on_session_start'> => ({
		session_id,
		session_key: `web:default:${session_id}`,
		platform: 'web',
		profile: 'default',
		model: 'offline'
	});

	it('registers its hooks and the /index command', async () => {
		const plugin = await start('session-index');
		expect(plugin.hooks().sort()).toEqual(['on_session_delete', 'on_session_start', 'post_llm_call']);
		expect([...plugin.commands.keys()]).toEqual(['index']);
		expect(plugin.commands.get('index')!.options.description).toBeTruthy();
	});

	it('creates an entry on start and updates it after each answer', async () => {
		const plugin = await start('session-index');
		await plugin.bus.notify('on_session_start', started('s1'));
		expect(plugin.store.get('session:s1')).toMatchObject({ turns: 0 });
		await plugin.bus.notify('post_llm_call', answer('s1', 'first'));
		await plugin.bus.notify('post_llm_call', answer('s1', 'How do I rotate the API keys?'));
		expect(plugin.store.get('session:s1')).toMatchObject({
			turns: 2,
			last_user_message_preview: 'How do I rotate the API keys?'
		});
		plugin.allOk();
	});

	it('drops the sidecar of every id in deleted_ids', async () => {
		const plugin = await start('session-index');
		for (const id of ['p', 'c1', 'c2', 'other']) await plugin.bus.notify('post_llm_call', answer(id, 'q'));
		await plugin.bus.notify('on_session_delete', deletion('p', { deleted_ids: ['p', 'c1', 'c2'] }));
		expect([...plugin.store.keys()]).toEqual(['session:other']);
		plugin.allOk();
	});

	it('drops the sidecar of session_id when deleted_ids is absent', async () => {
		const plugin = await start('session-index');
		for (const id of ['s1', 's2']) await plugin.bus.notify('post_llm_call', answer(id, 'q'));
		await plugin.bus.notify('on_session_delete', deletion('s1', { reason: 'empty_sweep' }));
		expect([...plugin.store.keys()]).toEqual(['session:s2']);
		plugin.allOk();
	});

	it('keeps the entry of an archived session, flagged', async () => {
		const plugin = await start('session-index');
		await plugin.bus.notify('post_llm_call', answer('s1', 'q'));
		await plugin.bus.notify('on_session_delete', deletion('s1', { reason: 'archive' }));
		expect(plugin.store.get('session:s1')).toMatchObject({ turns: 1, archived: true });
		plugin.allOk();
	});

	it('/index shows the count and the current session’s entry', async () => {
		const plugin = await start('session-index');
		await plugin.bus.notify('post_llm_call', answer('s1', 'Where are the logs?'));
		await plugin.bus.notify('post_llm_call', answer('s2', 'q'));
		const { handler } = plugin.commands.get('index')!;
		const context = { session_id: 's1', session_key: 'web:default:s1', platform: 'web', source: SOURCE };
		const text = await handler('', context);
		expect(text).toBeTypeOf('string');
		expect(text).toMatch(/\b2\b/);
		expect(text).toContain('s1');
		expect(text).toContain('Where are the logs?');
		expect(await handler('', { ...context, session_id: 'new' })).toMatch(/not indexed/);
	});
});

describe('static/plugins/whoami.js', () => {
	it('registers /whoami with the described description and no hooks', async () => {
		const plugin = await start('whoami');
		expect([...plugin.commands.keys()]).toEqual(['whoami']);
		expect(plugin.commands.get('whoami')!.options.description).toBe('Show who is calling, from which session');
		expect(plugin.hooks()).toEqual([]);
	});

	it('answers with the caller and the session from the command context', async () => {
		const plugin = await start('whoami');
		const text = await plugin.commands.get('whoami')!.handler('', {
			session_id: 'sess-42',
			session_key: 'web:work:sess-42',
			platform: 'web',
			source: { ...SOURCE, user_id: 'user-9', user_name: 'Grace', profile: 'work' }
		});
		expect(text).toBeTypeOf('string');
		for (const part of ['sess-42', 'web:work:sess-42', 'user-9', 'Grace', 'work', 'web']) expect(text).toContain(part);
		expect(String(text).split('\n').length).toBeGreaterThan(1);
	});

	it('still answers when no user invoked it (source is null)', async () => {
		const plugin = await start('whoami');
		const text = await plugin.commands.get('whoami')!.handler('', {
			session_id: 'sess-1',
			session_key: 'web:default:sess-1',
			platform: 'web',
			source: null
		});
		expect(text).toContain('sess-1');
	});
});
