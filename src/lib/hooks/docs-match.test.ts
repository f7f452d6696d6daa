// Keeps what plugin authors read in step with the hook contract: the guide's hook cards, the
// published plugin-api.d.ts and the example plugins are all checked against hook-map.ts. The
// hook part of plugin-api.d.ts is generated from it (plugin-api-build.test.ts); the compiler's
// word that the two maps are the same type holds even if that generator were wrong.
import { readFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { beforeAll, describe, expect, it } from 'vitest';
import { HOOK_KINDS, HOOK_NAMES } from './hook-map';
import { compileWithVirtualFile } from './compile-virtual';

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
	return compileWithVirtualFile({ name: EQUALITY_CHECK, text: equalityText }, [HOOK_MAP, API, EQUALITY_CHECK, ...EXAMPLES]);
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
