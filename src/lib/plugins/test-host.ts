// A plugin host over a throwaway database and a fake network, shared by the plugin tests
// (test-only; nothing in the app imports this).
import { vi } from 'vitest';
// eslint-disable-next-line @typescript-eslint/no-restricted-imports -- test-only: the real registry catches duplicate commands
import { CommandRegistry } from '../commands/command-registry';
import { PalimpsestDb } from '../db/database';
import { addPlugin } from '../db/plugin-verbs';
import type { PluginRow } from '../db/schema';
import { HookBus, type HookBusOptions } from '../hooks/hook-bus';
import { importFromDataUrl } from './import-plugin-module';
import { PluginHost } from './plugin-host';
import { PluginLogBook } from './plugin-log-book';
import { createPluginLogWriter } from './plugin-log-writer';
import { inPageRunner, type PluginRunner } from './plugin-runner';
import { openChannelSandbox } from './sandbox/channel-sandbox';
import { isolatedRunner } from './sandbox/isolated-runner';
import { ToolRegistry } from './plugin-tools';
import { pluginIdFromUrl } from './plugin-url';

export interface ServedFile {
	status?: number;
	type?: string;
	body?: string;
	/** The request fails as a network or CORS error does. */
	fail?: boolean;
	/** The server accepts the request and never answers (the abort signal is ignored too). */
	hang?: boolean;
	/** The answer waits for this. */
	wait?: Promise<unknown>;
}

export type Served = Record<string, ServedFile>;

export function fakeFetch(served: Served) {
	return vi.fn(async (url: string | URL | Request) => {
		// Read before any await: a test may change what is served for the next request.
		const entry = served[String(url)];
		if (entry?.hang) return new Promise<never>(() => {});
		if (entry?.wait) await entry.wait;
		if (!entry || entry.fail) throw new TypeError('Failed to fetch');
		return new Response(entry.body ?? '', {
			status: entry.status ?? 200,
			headers: { 'content-type': entry.type ?? 'text/javascript' }
		});
	}) as unknown as typeof fetch;
}

/** Where the test plugins run: in the page, or across a real MessagePort as isolated plugins do. */
export type RunnerKind = 'in-page' | 'isolated';

export const RUNNER_KINDS: RunnerKind[] = ['in-page', 'isolated'];

export function testRunner(kind: RunnerKind): PluginRunner {
	return kind === 'isolated' ? isolatedRunner(() => openChannelSandbox(importFromDataUrl)) : inPageRunner(importFromDataUrl);
}

/** `name`: the database; two hosts on one name are two tabs of one profile. */
export function makeHost(timeoutMs = 200, busOptions: HookBusOptions = {}, name = `plugins-${crypto.randomUUID()}`, runner: RunnerKind = 'in-page') {
	const db = new PalimpsestDb(name);
	// One timeout for everything a plugin runs, as in the app: hooks, commands, tools, register(ctx).
	const hooks = new HookBus({ logger: { warn: () => {} }, timeoutSeconds: () => timeoutMs / 1000, ...busOptions });
	const commands = new CommandRegistry(hooks);
	const tools = new ToolRegistry(hooks);
	const served: Served = {};
	const fetchImpl = fakeFetch(served);
	// ctx.log lines are kept in the database, as in the app.
	const logWriter = createPluginLogWriter(db);
	const host = new PluginHost({
		db, hooks, commands, tools, timeoutMs: () => timeoutMs, runner: testRunner(runner), fetchImpl,
		logger: { info: () => {}, warn: () => {}, error: () => {} },
		logBook: new PluginLogBook(undefined, logWriter.record)
	});
	const row = (url: string, extra: Partial<PluginRow> = {}) =>
		addPlugin(db, {
			id: pluginIdFromUrl(url, new Set()), url, enabled: 1, pinned_sha256: null, cached_source: null,
			cached_sha256: null, manifest: null, last_error: null, added_at: 1, ...extra
		});
	const close = async () => {
		await logWriter.flush();
		await db.delete();
	};
	return { db, hooks, commands, tools, served, fetchImpl, host, row, close, logWriter };
}

/** A promise and the function that settles it. */
export function gate() {
	let open!: () => void;
	const opened = new Promise<void>((resolve) => (open = resolve));
	return { opened, open };
}
