// The plugin guide's contents list every section, in order, and every link within the guide
// lands on a heading: an author finds the part they need without reading the rest. Start here
// comes first, short, naming the app's controls and the kit's defaults as they are.
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '../../..');
const GUIDE = readFileSync(resolve(ROOT, 'docs/plugins.md'), 'utf8');
/** The path a new author follows: from its heading to the next section of the same level. */
const START_HERE = /^## Start here\n[\s\S]*?(?=^## )/m.exec(GUIDE)?.[0] ?? '';
/** The text of the app's components and pages, where every control's name is written. */
const APP_TEXT = ['src/lib/components', 'src/routes']
	.flatMap((dir) => readdirSync(resolve(ROOT, dir), { recursive: true, encoding: 'utf8' }).filter((file) => file.endsWith('.svelte') || file.endsWith('.ts')).map((file) => readFileSync(resolve(ROOT, dir, file), 'utf8')))
	.join('\n');
/** The guide without its code blocks, whose lines may start with `#`. */
const PROSE = GUIDE.replace(/^```[\s\S]*?^```$/gm, '');

/** The anchor GitHub gives a heading. */
function slug(heading: string): string {
	return heading
		.toLowerCase()
		.replace(/[^\p{L}\p{N}\s_-]/gu, '')
		.replace(/\s/g, '-');
}

const headings = [...PROSE.matchAll(/^#{2,4} (.+)$/gm)].map((m) => m[1]);
const linksIn = (text: string) => [...text.matchAll(/\]\(#([^)]+)\)/g)].map((m) => m[1]);

describe('docs/plugins.md contents', () => {
	it('link every section of the guide, in order', () => {
		const contents = /^## Contents\n([\s\S]*?)^## /m.exec(PROSE)?.[1] ?? '';
		expect(linksIn(contents)).toEqual(headings.filter((heading) => heading !== 'Contents').map(slug));
	});

	it('put Start here first, before the reference, in at most 300 lines', () => {
		expect(headings.slice(0, 10)).toEqual([
			'Contents',
			'Start here',
			'1. A folder with the kit',
			'2. Re-inject context after a compaction',
			'3. Clean up after a session is deleted',
			'4. Test both with the kit',
			'5. Add them to the app',
			'6. Check the re-injection',
			'7. Check the clean-up',
			'8. Where to go next'
		]);
		expect(START_HERE.split('\n').length).toBeLessThanOrEqual(300);
	});

	it('name in Start here only controls the app has, by their exact names', () => {
		const named = [...new Set([...START_HERE.replace(/^```[\s\S]*?^```$/gm, '').matchAll(/\*\*([^*]+)\*\*/g)].map((m) => m[1].replace(/\s+/g, ' ')))];
		expect(named.length).toBeGreaterThan(10);
		expect(named.filter((name) => !APP_TEXT.includes(name))).toEqual([]);
	});

	it('give the test kit\'s default payload values as the kit has them', async () => {
		const { createTestKit } = await import(/* @vite-ignore */ resolve(ROOT, 'static/plugin-test-kit.js'));
		const kit = createTestKit({ quiet: true });
		const hooks = ['on_session_start', 'pre_llm_call', 'post_compaction', 'on_session_delete', 'pre_tool_call'];
		const payloads = hooks.map((hook) => kit.payload(hook) as Record<string, unknown>);
		const defaults = /^- `kit\.fire\(hook, fields\)`([\s\S]*?)^- /m.exec(START_HERE)?.[1] ?? '';
		const pairs = [...defaults.replace(/\n\s*/g, ' ').matchAll(/`(\w+): ([^`]+)`/g)].map(([, key, value]) => [key, value.replace(/'/g, '"')]);
		expect(pairs.length).toBeGreaterThan(10);
		const wrong = pairs.filter(([key, value]) => !payloads.some((payload) => JSON.stringify(payload[key]) === value));
		expect(wrong).toEqual([]);
	});

	it('leave no link within the guide pointing nowhere', () => {
		const anchors = new Set(headings.map(slug));
		expect(linksIn(PROSE).filter((link) => !anchors.has(link))).toEqual([]);
	});
});
