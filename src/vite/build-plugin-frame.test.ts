// The plugin frame's document the app serves is what frame-document.js writes now, and its
// policy allows its one inline script and nothing inline besides.
import { describe, expect, it } from 'vitest';
import { FRAME_POLICY, FRAME_SCRIPT } from '../lib/plugins/sandbox/frame-document.js';
import { readPagePolicy } from '../server/security-headers.mjs';
import { committedFrameIsFresh, scriptHash } from './build-plugin-frame.js';

describe('static/plugin-frame.html', () => {
	it('is what frame-document.js writes now (run npm run build:frame after changing it)', async () => {
		const { fresh, built, committed } = await committedFrameIsFresh();
		expect(committed.length, 'static/plugin-frame.html is missing').toBeGreaterThan(0);
		if (!fresh) expect(committed).toBe(built);
		expect(fresh).toBe(true);
	});

	it('allows exactly its one inline script by its hash, and makes only its own Trusted Types policy', async () => {
		const { committed } = await committedFrameIsFresh();
		const scripts = [...committed.matchAll(/<script>([\s\S]*?)<\/script>/g)].map((match) => match[1]);
		expect(scripts).toEqual([FRAME_SCRIPT]);
		const policy = readPagePolicy(committed) ?? '';
		expect(policy).toContain(`script-src '${scriptHash(scripts[0])}' 'wasm-unsafe-eval' blob: https: http:;`);
		expect(policy).not.toMatch(/unsafe-inline|'unsafe-eval'|'self'/);
		expect(policy).toMatch(new RegExp(`trusted-types ${FRAME_POLICY}(;|$)`));
		expect(policy).toContain("require-trusted-types-for 'script'");
	});
});
