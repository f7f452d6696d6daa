import { sveltekit } from '@sveltejs/kit/vite';
import { defineConfig } from 'vitest/config';
import { nameEncodingChunks } from './src/vite/name-encoding-chunks.js';
import { pluginFrameHeaders } from './src/vite/plugin-frame-headers.js';
import { pluginRuntimeSource } from './src/vite/plugin-runtime-source.js';

export default defineConfig({
	plugins: [sveltekit(), nameEncodingChunks(), pluginRuntimeSource(), pluginFrameHeaders()],
	worker: { format: 'es' },
	optimizeDeps: {
		include: [
			'comlink',
			'dexie',
			'gpt-tokenizer/encoding/o200k_base',
			'gpt-tokenizer/encoding/cl100k_base',
			'marked',
			'dompurify',
			'highlight.js/lib/core'
		]
	},
	preview: { host: '127.0.0.1', port: 4173 },
	test: {
		include: ['src/**/*.test.ts', 'tests/support/**/*.test.ts'],
		environment: 'node',
		// Worker threads start and load modules faster than child processes: the unit tests take
		// about two-thirds of the time they took in forks on 2 cores.
		pool: 'threads',
		// Three files at a time, not Vitest's default of one fewer than the cores (one here): many
		// tests wait on timers and workers, and the whole run takes 112 s against 176 s.
		maxWorkers: 3,
		// Tests check behaviour; speed is the benchmarks'. Some (1 MB pastes, ESLint runs) take
		// seconds on a busy 2-core machine, which the default 5 s limit turned into failures.
		testTimeout: 30_000,
		setupFiles: ['tests/support/vitest-setup.ts'],
		typecheck: { enabled: true, include: ['src/**/*.test-d.ts'] }
	}
});
