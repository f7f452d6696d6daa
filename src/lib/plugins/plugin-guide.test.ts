// What the plugin guide promises about loading, checked against the values the loader uses.
import { readFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { DEFAULT_FETCH_TIMEOUT_MS } from './fetch-plugin-source';

const GUIDE = readFileSync(resolve(dirname(fileURLToPath(import.meta.url)), '../../../docs/plugins.md'), 'utf8');

describe('docs/plugins.md on loading', () => {
	it('gives a download the default limit or the hook timeout, whichever is longer', () => {
		// The host gives a download Math.max(hook timeout, DEFAULT_FETCH_TIMEOUT_MS).
		const sentence = /A server\s+that does not send the whole file within ([^.]*)\./.exec(GUIDE)?.[1].replace(/\s+/g, ' ');
		expect(sentence).toContain(`${DEFAULT_FETCH_TIMEOUT_MS / 1000} seconds`);
		expect(sentence).toMatch(/\[timeout\]\(#timeouts\) when that is longer/);
	});
});
