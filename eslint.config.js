// Lint rules, including the layer rules of the architecture: imports point inward.
import js from '@eslint/js';
import svelte from 'eslint-plugin-svelte';
import globals from 'globals';
import playwright from 'eslint-plugin-playwright';
import ts from 'typescript-eslint';
import svelteConfig from './svelte.config.js';

/**
 * Forbids value imports of the given layers; type-only imports stay allowed unless `types` is
 * false (Dexie and the UI are never imported where they are forbidden, not even for a type).
 */
function layer(files, forbidden, message, { types = true, allowed = [], extra = [] } = {}) {
	return {
		files,
		rules: {
			'@typescript-eslint/no-restricted-imports': [
				'error',
				{
					patterns: [
						...forbidden.map((group) => ({
							group: [...(Array.isArray(group) ? group : [group]), ...allowed.map((path) => `!${path}`)],
							message,
							allowTypeImports: types && !['dexie', 'svelte', 'svelte/*', '$app/*', '**/*.svelte'].includes(group)
						})),
						...extra.map((pattern) => ({ message, ...pattern }))
					]
				}
			]
		}
	};
}

const APP_LAYERS = ['**/db/*', '**/hooks/*', '**/plugins/*', '**/commands/*', '**/context/*', '**/providers/*', '**/tool-servers/*', '**/sessions/*', '**/agent/*', '**/state/*', '**/components/*', '**/test-kit/*', '**/sync/*', '**/prompts/*', '**/assistants/*'];
const except = (...kept) => APP_LAYERS.filter((l) => !kept.some((k) => l.includes(`/${k}/`)));
const UI = ['svelte', 'svelte/*', '$app/*', '**/*.svelte', '**/*.svelte.ts', '**/*.svelte.js'];

export default ts.config(
	js.configs.recommended,
	...ts.configs.recommended,
	...svelte.configs.recommended,
	{
		languageOptions: { globals: { ...globals.browser, ...globals.node } }
	},
	{
		files: ['**/*.svelte', '**/*.svelte.ts', '**/*.svelte.js'],
		languageOptions: {
			parserOptions: { projectService: true, extraFileExtensions: ['.svelte'], parser: ts.parser, svelteConfig }
		}
	},
	{
		rules: {
			'@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_', destructuredArrayIgnorePattern: '^_' }],
			'svelte/no-navigation-without-resolve': 'off'
		}
	},
	// Only db/ talks to Dexie.
	{ ...layer(['src/**/*.{ts,js,svelte}'], ['dexie'], 'Only src/lib/db may import Dexie.'), ignores: ['src/lib/db/**'] },
	// db/ imports no other layer but the message clock (pure: it gives each message row its position).
	layer(['src/lib/db/**'], [...except('db', 'sync'), ['**/sync/*', '!**/sync/position']], 'db/ imports nothing app-level but the message clock.'),
	layer(['src/lib/hooks/**'], [...except('hooks'), ...UI, 'dexie'], 'hooks/ is plain TypeScript with no app-level imports.'),
	layer(['src/lib/providers/**'], [...except('providers'), ...UI, 'dexie'], 'providers/ is plain TypeScript with no app-level imports.'),
	layer(['src/lib/tool-servers/**'], [...except('tool-servers', 'hooks'), ...UI, 'dexie'], 'tool-servers/ is plain TypeScript that may import only hooks.'),
	layer(['src/lib/context/**'], [...except('context', 'db'), ...UI, 'dexie'], 'context/ may import only db (client side).'),
	layer(['src/lib/plugins/**'], [...except('plugins', 'hooks', 'db'), ...UI, 'dexie'], 'plugins/ may import hooks and db.'),
	layer(['src/lib/sessions/**'], [...except('sessions', 'db', 'hooks', 'prompts'), ...UI, 'dexie'], 'sessions/ may import db, hooks and the rules of prompts.'),
	// What a saved prompt may be: pure rules over its row's type, the names of the built-in commands and the file parsers.
	{
		files: ['src/lib/prompts/**'],
		rules: {
			'@typescript-eslint/no-restricted-imports': [
				'error',
				{
					patterns: [
						{ group: ['**/commands/*', '!**/commands/builtin-names'], message: 'prompts/ knows only the names of the built-in commands.' },
						{ group: ['**/sessions/*', '!**/sessions/import-schema'], message: 'prompts/ imports only the field parsers of sessions/.' },
						...[...except('prompts', 'db', 'commands', 'sessions'), ...UI, 'dexie'].map((group) => ({ group: [group], message: 'prompts/ is plain TypeScript below the app.' }))
					]
				}
			]
		}
	},
	// What an assistant may be: pure rules over its row's type, with the parsers of a chat's settings and of a file's fields.
	{
		files: ['src/lib/assistants/**'],
		rules: {
			'@typescript-eslint/no-restricted-imports': [
				'error',
				{
					patterns: [
						{ group: ['**/sessions/*', '!**/sessions/import-schema', '!**/sessions/chat-settings'], message: 'assistants/ imports only the field parsers of sessions/.' },
						...[...except('assistants', 'db', 'sessions'), ...UI, 'dexie'].map((group) => ({ group: [group], message: 'assistants/ is plain TypeScript below the app.' }))
					]
				}
			]
		}
	},
	layer(['src/lib/commands/**'], [...except('commands', 'hooks', 'plugins', 'sessions', 'context'), ...UI, 'dexie'], 'commands/ may import hooks, plugins, sessions and context.'),
	layer(['src/lib/test-kit/**'], [...except('test-kit', 'hooks', 'plugins', 'commands'), ...UI, 'dexie'], 'test-kit/ is the bus, plugin context and registries without the database or the UI.'),
	// The sync core is pure: row types from db/ with its pure order and conversation rules, and the
	// row parsers an imported file is read with.
	{
		files: ['src/lib/sync/**'],
		rules: {
			'@typescript-eslint/no-restricted-imports': [
				'error',
				{
					patterns: [
						{ group: ['**/db/*', '!**/db/rank', '!**/db/conversation'], message: 'sync/ imports only types from db/, and its pure order and conversation rules.', allowTypeImports: true },
						{ group: ['**/sessions/*', '!**/sessions/import-rows', '!**/sessions/import-schema'], message: 'sync/ imports only the row parsers of sessions/.' },
						...[...except('sync', 'db', 'sessions', 'prompts', 'assistants'), ...UI, 'dexie'].map((group) => ({ group: [group], message: 'sync/ is plain TypeScript below the app.' }))
					]
				}
			]
		}
	},
	// The store over the profile's database, and the worker that runs sync, stand on db/.
	{
		files: ['src/lib/sync/dexie-*.ts', 'src/lib/sync/*.worker.ts'],
		rules: {
			'@typescript-eslint/no-restricted-imports': [
				'error',
				{ patterns: [...except('sync', 'db', 'sessions', 'prompts', 'assistants'), ...UI, 'dexie'].map((group) => ({ group: [group], message: 'sync/ stands on db/ and nothing above it.' })) }
			]
		}
	},
	layer(['src/lib/agent/**'], [...except('agent', 'db', 'hooks', 'plugins', 'commands', 'context', 'providers', 'tool-servers', 'sessions', 'prompts'), ...UI, 'dexie'], 'agent/ is plain TypeScript below the UI.'),
	// What a component needs from a lower layer, a state/ module re-exports (e.g. state/shared/view-types.ts).
	// The feature folders of state/ and components (state/sessions/, components/sync/…) are the
	// UI's own, whatever they are named: reached as $lib/state/… or $lib/components/…, never
	// through `..`.
	layer(
		['src/lib/components/**', 'src/routes/**'],
		[...except('state', 'components'), 'dexie'],
		'Components and routes import only state/, types included: re-export what they need from a state/ module.',
		{ types: false, allowed: ['$lib/state/**', '$lib/components/**'], extra: [{ regex: '^\\$lib/.*(^|/)\\.\\.(/|$)' }] }
	),
	// Tests may reach across layers to set up real parts.
	{ files: ['**/*.test.ts', '**/*.test-d.ts', 'tests/**'], rules: { '@typescript-eslint/no-restricted-imports': 'off' } },
	// Every browser spec takes `test` from test-base.ts, which fails a test on any uncaught page error.
	{
		files: ['tests/e2e/**/*.spec.ts'],
		rules: {
			'no-restricted-imports': [
				'error',
				{ paths: [{ name: '@playwright/test', importNames: ['test'], message: "Import test from './test-base': it fails a test on any uncaught page error." }] }
			]
		}
	},
	// Browser tests read the page only through assertions that wait (web-first assertions,
	// expect.poll): the Playwright plugin's recommended rules, each one an error.
	{
		...playwright.configs['flat/recommended'],
		files: ['tests/e2e/**'],
		rules: {
			...Object.fromEntries(Object.entries(playwright.configs['flat/recommended'].rules).map(([rule, level]) => [rule, level === 'off' ? 'off' : 'error'])),
			// A test may skip itself where the machine cannot run it (a port taken, no private mounts), saying why.
			'playwright/no-skipped-test': ['error', { allowConditional: true }]
		}
	},
	// A shared step file registers the hooks of the servers a spec asks for, one function each:
	// the order and spacing of hooks is the spec's to keep, not the helper's.
	{
		files: ['tests/e2e/**/*.ts'],
		ignores: ['tests/e2e/**/*.spec.ts'],
		rules: {
			'playwright/consistent-spacing-between-blocks': 'off',
			'playwright/no-duplicate-hooks': 'off',
			'playwright/prefer-hooks-in-order': 'off',
			'playwright/prefer-hooks-on-top': 'off'
		}
	},
	// ...but not to Dexie: outside db/, tests use the database class's own verbs too.
	{ ...layer(['src/**/*.test.ts'], ['dexie'], 'Only src/lib/db may import Dexie, tests included.'), ignores: ['src/lib/db/**'] },
	{
		// The test kit is generated from src/lib/test-kit (npm run build:kit), and linted there; the
		// published .d.ts files are compiled by their tests (the hook part of plugin-api.d.ts is
		// generated from src/lib/hooks by npm run build:api).
		ignores: ['build/', '.svelte-kit/', 'node_modules/', 'test-results/', 'playwright-report/', 'static/*.d.ts', 'static/plugin-test-kit.js']
	}
);
