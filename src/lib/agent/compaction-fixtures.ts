// Shared set-up of the compaction and turn tests (test-only; nothing in the app imports this):
// a real database, the real context worker API over a MessageChannel, a hook bus that
// records every event, and providers that play a script.
import { expose } from 'comlink';
import { afterEach, beforeEach } from 'vitest';
import { PalimpsestDb as Database } from '../db/database';
import type { PalimpsestDb } from '../db/database';
import { appendMessages, listMessages, type NewMessage } from '../db/message-verbs';
import { ContextWorker } from '../context/context-client';
import { contextApi } from '../context/context-api';
import { reservedOutputFor } from '../context/context-window';
import { HookBus } from '../hooks/hook-bus';
import { HOOK_NAMES, type HookName } from '../hooks/hook-map';
import { createOfflineProvider } from '../providers/offline';
import type { ChatRequest, Provider, StreamEvent } from '../providers/types';
import { createSession } from '../sessions/session-lifecycle';
import type { SessionContext } from '../sessions/session-context';
import { DEFAULT_COMPACTION_SETTINGS, type CompactionDeps, type CompactionSettings } from './compaction-types';

/** The worker's own API served over a real MessageChannel, as the browser runs it. */
export function channelCounter(): ContextWorker {
	return new ContextWorker({
		start: () => {
			const { port1, port2 } = new MessageChannel();
			expose(contextApi, port1);
			return { endpoint: port2, terminate: () => (port1.close(), port2.close()), onCrash: () => {} };
		}
	});
}

/** A provider that plays back a script and records the requests it received. */
export function scripted(script: (request: ChatRequest, call: number) => AsyncGenerator<StreamEvent>, extra: Partial<Provider> = {}) {
	const requests: ChatRequest[] = [];
	const provider: Provider = {
		id: 'scripted',
		label: 'Scripted',
		offline: false,
		stream(request) {
			requests.push(request);
			return script(request, requests.length - 1);
		},
		...extra
	};
	return { provider, requests };
}

export async function* say(...chunks: string[]): AsyncGenerator<StreamEvent> {
	for (const text of chunks) yield { type: 'text', text };
	yield { type: 'usage', usage: { input_tokens: 10, output_tokens: 3 } };
	yield { type: 'done', finish_reason: 'stop' };
}

export type Recorded = { hook: HookName; payload: Record<string, unknown> };

/** A hook bus with one plugin listening to everything, recording what it hears in order. */
export function recordingBus(hooks = new HookBus({ logger: { warn: () => {} } })): { hooks: HookBus; events: Recorded[]; of: (hook: HookName) => Record<string, unknown>[] } {
	const events: Recorded[] = [];
	for (const hook of HOOK_NAMES) {
		if (hook === 'pre_tool_call' || hook === 'pre_llm_call') continue;
		hooks.register('recorder', hook, (payload: unknown) => void events.push({ hook, payload: payload as Record<string, unknown> }));
	}
	return { hooks, events, of: (hook) => events.filter((e) => e.hook === hook).map((e) => e.payload) };
}

/** Plain text of about `words` words that no summary template heading picks up by keyword. */
export function filler(seed: number, words: number): string {
	const bank = ['river', 'stone', 'lantern', 'harbour', 'meadow', 'copper', 'willow', 'thunder', 'paper', 'orchard', 'signal', 'marble'];
	return Array.from({ length: words }, (_, i) => bank[(seed * 7 + i * 3) % bank.length]).join(' ') + '.';
}

/** Appends `exchanges` user/assistant pairs to a session. */
export async function seedConversation(db: PalimpsestDb, sessionId: string, exchanges: number, words = 80): Promise<void> {
	const rows: NewMessage[] = [];
	for (let i = 0; i < exchanges; i++) {
		rows.push({ id: `u${i}`, role: 'user', kind: 'message', status: 'complete', created_at: 1, content: `Question ${i}: ${filler(i, words / 4)}` });
		rows.push({ id: `a${i}`, role: 'assistant', kind: 'message', status: 'complete', created_at: 1, content: `Answer ${i}: ${filler(i + 1, words)}` });
	}
	await appendMessages(db, sessionId, rows);
}

export const WINDOW = 4000;

export interface CompactionEnv {
	db: PalimpsestDb;
	sessions: SessionContext;
	bus: ReturnType<typeof recordingBus>;
	counter: ContextWorker;
	deps(extra?: Partial<CompactionDeps>, settings?: Partial<CompactionSettings>): CompactionDeps;
	newSession(model?: string): Promise<string>;
	transcript(sessionId: string): Promise<unknown[]>;
}

export function compactionEnv(db: PalimpsestDb, bus = recordingBus()): CompactionEnv {
	const sessions: SessionContext = { db, hooks: bus.hooks, profile: 'default', platform: 'web' };
	const counter = channelCounter();
	const offline = createOfflineProvider({ delayMs: 0 });
	return {
		db,
		sessions,
		bus,
		counter,
		deps: (extra = {}, settings = {}) => ({
			db,
			counter,
			provider: offline,
			model: 'offline-mini',
			hooks: bus.hooks,
			sessions,
			settings: { ...DEFAULT_COMPACTION_SETTINGS, tailTokens: 400, ...settings },
			windowTokens: WINDOW,
			request: { systemPrompt: 'SYS', reservedOutput: reservedOutputFor(WINDOW) },
			...extra
		}),
		async newSession(model = 'offline-mini') {
			const row = await createSession(sessions, { provider: 'offline', model });
			await bus.hooks.settled();
			bus.events.length = 0;
			return row.id;
		},
		transcript: async (sessionId) => (await listMessages(db, sessionId)).map(({ seq, active, content, kind, compacted_by }) => ({ seq, active, content, kind, compacted_by }))
	};
}

/**
 * A fresh database and compaction set-up for each test of the calling file; `current()` is
 * the one of the running test.
 */
export function useCompactionEnv(name: string): { current: () => CompactionEnv } {
	let env: CompactionEnv | null = null;
	beforeEach(() => {
		env = compactionEnv(new Database(`${name}-${crypto.randomUUID()}`));
	});
	afterEach(async () => {
		env?.counter.dispose();
		env?.db.close();
		await env?.db.delete();
	});
	return { current: () => env! };
}
