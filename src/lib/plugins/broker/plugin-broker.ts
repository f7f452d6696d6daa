// The plugin broker: a worker of the app's own that holds the receiving end of every plugin's
// channel, so that nothing a plugin sends (however much, however large) is read, checked,
// stored or logged on the page's thread. The page attaches each plugin's port here and then
// only asks for calls into it; the broker serves the plugin's storage and log from the profile's
// database, applies every budget, watches that the plugin keeps answering, and tells the page
// when it stopped one. It runs in a worker in the app (broker.worker.ts) and in the test's own
// thread in Node, behind the same comlink interface.
import { watch } from '../../db/watch';
import type { PalimpsestDb } from '../../db/database';
import { appendHookLog } from '../../db/plugin-verbs';
import type { HookLogRow } from '../../db/schema';
import { storageBudgetBytes } from '../plugin-budgets';
import { ScratchStorage } from '../scratch-storage';
import type { PageNotice, PageQuestion } from '../sandbox/wire-protocol';
import type { AnswerKind, BrokerApi, PluginEvents, ScratchStep, StorageOwner } from './broker-protocol';
import { BrokeredPlugin, type LogSink } from './brokered-plugin';
import { InboxScheduler } from './inbox-scheduler';
import { WATCHDOG, type Watchdog } from './response-watch';

export interface BrokerOptions {
	/** Opens a profile's database by name. */
	openDb: (name: string) => PalimpsestDb;
	/** Where plugins' log lines go. */
	log: (db: PalimpsestDb) => LogSink;
	/** Bytes of storage each plugin may use; by default the profile's setting, followed live. */
	storageBudget?: () => number;
	watchdog?: Watchdog;
	/** How plugins' messages are read (tests give their own limits and clock). */
	inboxes?: InboxScheduler;
}

const GONE = 'The plugin was stopped (disabled, reloaded or removed) before it answered.';

export class PluginBroker implements BrokerApi {
	#db: PalimpsestDb | null = null;
	#plugins = new Map<number, BrokeredPlugin>();
	#scratch: ScratchStorage | null = null;
	#log: LogSink | null = null;
	#budget: () => number;
	#stopBudget = () => {};
	/** One for all plugins: each plugin's messages are read in turn with the others'. */
	readonly #inboxes: InboxScheduler;
	readonly #options: BrokerOptions;

	constructor(options: BrokerOptions) {
		this.#options = options;
		this.#budget = options.storageBudget ?? (() => storageBudgetBytes(Number.NaN));
		this.#inboxes = options.inboxes ?? new InboxScheduler();
	}

	async open(dbName: string): Promise<void> {
		const db = this.#options.openDb(dbName);
		await db.open();
		this.#db = db;
		this.#log = this.#options.log(db);
		if (!this.#options.storageBudget) {
			let bytes = storageBudgetBytes(Number.NaN);
			this.#budget = () => bytes;
			this.#stopBudget = watch(
				() => db.settings.get('plugins.storage_budget_mb'),
				(row) => (bytes = storageBudgetBytes(Number(row?.value))),
				(error) => console.warn('[plugins] could not follow the storage budget setting', error)
			);
		}
		this.#scratch = new ScratchStorage(db, () => this.#budget());
	}

	attach(key: number, port: MessagePort, events: PluginEvents): void {
		if (!this.#db || !this.#scratch || !this.#log) throw new Error('The plugin broker has no database open.');
		if (this.#plugins.has(key)) throw new Error(`A plugin is already attached as ${key}.`);
		this.#plugins.set(key, new BrokeredPlugin(port, events, { db: this.#db, scratch: this.#scratch, log: this.#log, storageBudget: () => this.#budget(), watchdog: this.#options.watchdog ?? WATCHDOG, inboxes: this.#inboxes }));
	}

	serve(key: number, owner: StorageOwner): void {
		this.#plugin(key).serve(owner);
	}

	ask(key: number, question: PageQuestion, kind: AnswerKind): Promise<unknown> {
		const plugin = this.#plugins.get(key);
		return plugin ? plugin.ask(question, kind) : Promise.reject(new Error(GONE));
	}

	tell(key: number, notice: PageNotice): void {
		this.#plugins.get(key)?.tell(notice);
	}

	detach(key: number, reason = GONE): void {
		this.#plugins.get(key)?.close(reason);
		this.#plugins.delete(key);
	}

	async scratch(pluginId: string, step: ScratchStep): Promise<void> {
		const scratch = this.#scratch;
		if (!scratch) return;
		if (step === 'begin') await scratch.begin(pluginId);
		else if (step === 'end') scratch.end(pluginId);
		else scratch.reset(pluginId);
	}

	async writeHookLog(rows: HookLogRow[]): Promise<void> {
		if (this.#db && rows.length) await appendHookLog(this.#db, rows);
	}

	/** Stops every plugin and closes the database (the page is going, or switching profile). */
	close(): void {
		for (const key of [...this.#plugins.keys()]) this.detach(key);
		this.#stopBudget();
		this.#db?.close();
	}

	#plugin(key: number): BrokeredPlugin {
		const plugin = this.#plugins.get(key);
		if (!plugin) throw new Error(GONE);
		return plugin;
	}
}
