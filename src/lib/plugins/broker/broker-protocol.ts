// What the page and the plugin broker say to each other. The broker is a worker of the app's
// own that holds the receiving end of every plugin's channel (see plugin-broker.ts); the page
// only asks it to start, call and stop plugins, and hears back what the page must act on: a
// registration for its hook bus, a plugin stopped, the counters of a plugin's row. Both sides
// are ours, so this crosses with comlink; what a plugin sent has been checked before any of it
// reaches the page.
import type { HookLogRow } from '../../db/schema';
import type { PageNotice, PageQuestion, RegistrationRecord } from '../sandbox/wire-protocol';
import type { Halt, UsageReport } from '../plugin-runner';
import type { ScratchStep } from '../scratch-storage';

export type { ScratchStep, UsageReport };

/** How the broker reads the plugin's answer to a question (see read-answers.ts). */
export type AnswerKind = 'load' | 'records' | 'true' | 'ignored' | 'value' | 'history';

/** Whose storage a plugin's calls reach: its id, and the `added_at` of the row it was loaded from. */
export interface StorageOwner {
	pluginId: string;
	addedAt: number;
}


/** What the broker tells the page of one plugin. */
export interface PluginEvents {
	/** A registration made after register(ctx) returned; throws the page's refusal. */
	register(record: RegistrationRecord): unknown;
	unregister(handle: number): unknown;
	/** The broker stopped the plugin on its own (a budget broken, its code stopped answering). */
	halted(halt: Halt): unknown;
	/** What it ran into of its budgets since the last report (a few reports a second at most). */
	usage(report: UsageReport): unknown;
}

export interface BrokerApi {
	/** Opens the profile's database; the first call, before any other. */
	open(dbName: string): Promise<void>;
	/** Takes the page's end of a plugin's channel, under `key` (one per start of a plugin). */
	attach(key: number, port: MessagePort, events: PluginEvents): void;
	/** From now on, the plugin's storage calls are served, as `owner`'s. */
	serve(key: number, owner: StorageOwner): void;
	/** Asks the plugin's context; resolves to its answer, checked as `kind` says. */
	ask(key: number, question: PageQuestion, kind: AnswerKind): Promise<unknown>;
	tell(key: number, notice: PageNotice): void;
	/** Stops listening to the plugin (it is being stopped); every question still waiting fails. */
	detach(key: number, reason?: string): void;
	scratch(pluginId: string, step: ScratchStep): Promise<void>;
	/** Stores hook calls in the bounded hook log. */
	writeHookLog(rows: HookLogRow[]): Promise<void>;
}
