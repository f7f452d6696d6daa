// The plugin guide's contents list every section, in order, and every link within the guide
// lands on a heading: an author finds the part they need without reading the rest.
import { readFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const GUIDE = readFileSync(resolve(dirname(fileURLToPath(import.meta.url)), '../../../docs/plugins.md'), 'utf8');
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

	it('put the recipes first, before the reference', () => {
		expect(headings.slice(0, 5)).toEqual([
			'Contents',
			'Recipes',
			'Re-inject context after a compaction',
			'Clean up after a session is deleted',
			'Test a plugin with the test kit'
		]);
	});

	it('leave no link within the guide pointing nowhere', () => {
		const anchors = new Set(headings.map(slug));
		expect(linksIn(PROSE).filter((link) => !anchors.has(link))).toEqual([]);
	});
});
