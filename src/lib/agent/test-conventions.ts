// The guide's re-injection plugin (static/plugins/conventions.js) loaded in the app's plugin
// host, with the compaction set-up over its bus: what the re-injection tests run turns through
// (test-only; nothing in the app imports this).
import { readFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, expect } from 'vitest';
import { openProfileDb } from '../db/database';
import { makeHost, type RunnerKind } from '../plugins/test-host';
import { createOfflineProvider } from '../providers/offline';
import type { Provider } from '../providers/types';
import { createTurnCompaction } from './compaction-gates';
import { compactionEnv, recordingBus, type CompactionEnv } from './compaction-fixtures';
import type { TurnDeps } from './turn-deps';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '../../..');

/** The heading conventions.js puts before what it re-injects. */
export const MARKER = 'Team conventions (restated after the conversation was compacted)';

export interface ConventionsSetup {
	/** A plugin host with conventions.js loaded (hook timeout `timeoutMs`) and the compaction env over its bus. */
	load(timeoutMs: number, runner?: RunnerKind): Promise<CompactionEnv>;
	/** A compaction env over a profile database of its own, with no plugin. */
	withoutPlugins(): CompactionEnv;
	/** A turn's dependencies, compacting through the env made last. */
	deps(provider: Provider, resumed?: boolean): TurnDeps;
}

/** Set-up for the tests of the calling file; the env a test made is closed after it. */
export function useConventions(): ConventionsSetup {
	let env: CompactionEnv | null = null;
	let close = async () => {};
	afterEach(async () => {
		env?.counter.dispose();
		await close();
	});
	return {
		async load(timeoutMs, runner = 'in-page') {
			const t = makeHost(timeoutMs, {}, undefined, runner);
			close = async () => (t.db.close(), await t.close());
			const url = 'https://plugins.test/conventions.js';
			t.served[url] = { body: readFileSync(resolve(ROOT, 'static/plugins/conventions.js'), 'utf8') };
			expect(await t.host.load(await t.row(url))).toMatchObject({ ok: true });
			env = compactionEnv(t.db, recordingBus(t.hooks));
			return env;
		},
		withoutPlugins() {
			const made = compactionEnv(openProfileDb(`overflow-${crypto.randomUUID()}`));
			close = async () => (made.db.close(), await made.db.delete());
			env = made;
			return made;
		},
		deps(provider, resumed = false) {
			const offline = createOfflineProvider({ delayMs: 0 });
			const compaction = env!.deps({ provider, summarizer: { provider: offline, model: 'offline-mini', windowTokens: 32_000 } });
			return {
				db: env!.db, provider, model: 'offline-mini', profile: 'default', platform: 'web', hooks: env!.bus.hooks,
				systemPrompt: 'SYS', checkpointMs: 0, compaction: createTurnCompaction(compaction, { resumed })
			};
		}
	};
}
