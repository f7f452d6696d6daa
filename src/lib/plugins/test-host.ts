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
import { brokeredRunner } from './broker/brokered-runner';
import type { BrokerSlot } from './broker/broker-slot';
import { threadBroker, type ThreadBrokerOptions } from './broker/thread-broker';
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

/** Isolated plugins run behind real ports, served by a broker in this thread over `dbName`. */
export function isolatedTestRunner(dbName: string, options: ThreadBrokerOptions, onOpen?: (context: MessagePort) => void): { runner: PluginRunner; broker: BrokerSlot } {
	const broker = threadBroker(dbName, options);
	return { runner: brokeredRunner(() => openChannelSandbox(importFromDataUrl, onOpen), () => broker.get()), broker };
}

export function testRunner(kind: RunnerKind, dbName: string, log: PluginLogBook, options: Omit<ThreadBrokerOptions, 'log'> = {}): { runner: PluginRunner; broker?: BrokerSlot } {
	return kind === 'isolated' ? isolatedTestRunner(dbName, { ...options, log }) : { runner: inPageRunner(importFromDataUrl) };
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
	const logBook = new PluginLogBook(undefined, logWriter.record);
	// The broker's own connection, as the app's worker has one: a test reaches it to inject faults.
	let brokerDb: PalimpsestDb | undefined;
	const openDb = (dbName: string) => (brokerDb = new PalimpsestDb(dbName));
	const host = new PluginHost({
		db, hooks, commands, tools, timeoutMs: () => timeoutMs, ...testRunner(runner, name, logBook, { openDb }), fetchImpl,
		logger: { info: () => {}, warn: () => {}, error: () => {} },
		logBook
	});
	const row = (url: string, extra: Partial<PluginRow> = {}) =>
		addPlugin(db, {
			id: pluginIdFromUrl(url, new Set()), url, enabled: 1, pinned_sha256: null, cached_source: null,
			cached_sha256: null, manifest: null, last_error: null, added_at: 1, ...extra
		});
	const close = async () => {
		host.close();
		await logWriter.flush();
		await db.delete();
	};
	return { db, hooks, commands, tools, served, fetchImpl, host, row, close, logWriter, brokerDb: () => brokerDb };
}

/** A promise and the function that settles it. */
export function gate() {
	let open!: () => void;
	const opened = new Promise<void>((resolve) => (open = resolve));
	return { opened, open };
}
