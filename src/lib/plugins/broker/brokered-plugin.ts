// One plugin, as the broker serves it: the only port that listens to its context, the checks
// and budgets of everything it sends, its storage and its log. The page hears of it only what
// it must act on (a registration, the plugin stopped, its counters), a few times a second at most.
import type { PalimpsestDb } from '../../db/database';
import { formatBytes } from '../../hooks/plain-data';
import { LOG_BURST, LOG_LINES_PER_SECOND, RateBudget } from '../plugin-budgets';
import type { LogLevel } from '../plugin-log-book';
import { createPluginStorage, type PluginStorage } from '../plugin-storage';
import type { ScratchStorage } from '../scratch-storage';
import { PluginChannel } from '../sandbox/plugin-channel';
import { readHistoryAnswer, readIgnored, readLoadAnswer, readRecords, readTrue, readValue } from '../sandbox/read-answers';
import type { ContextRequest, PageNotice, PageQuestion, RegistrationRecord } from '../sandbox/wire-protocol';
import { toolBoundsMessage, toolBoundsProblem } from '../tool-bounds';
import type { AnswerKind, PluginEvents, StorageOwner, UsageReport } from './broker-protocol';
import type { InboxScheduler, PluginInbox } from './inbox-scheduler';
import { watchResponses, type WatchVerdict, type Watchdog } from './response-watch';
import { StorageGate } from './storage-gate';

/** The most dropped log lines one message may report (a count from the plugin's side, so bounded). */
const MAX_REPORTED_DROPS = 1_000_000;
/** How often, at most, the page hears of a plugin's counters. */
const REPORT_EVERY_MS = 250;

const READERS: Record<AnswerKind, (value: unknown) => unknown> = {
	load: readLoadAnswer,
	records: readRecords,
	true: readTrue,
	ignored: readIgnored,
	value: readValue,
	history: readHistoryAnswer
};

/** Where the lines a plugin logs go (the broker's console and the stored log, or a test's book). */
export interface LogSink {
	append(pluginId: string, level: LogLevel, args: readonly unknown[]): void;
}

export interface BrokeredParts {
	db: PalimpsestDb;
	storageBudget: () => number;
	scratch: ScratchStorage;
	log: LogSink;
	watchdog: Watchdog;
	/** Reads every plugin's messages in fair turns (one scheduler for the broker). */
	inboxes: InboxScheduler;
}

export class BrokeredPlugin {
	readonly #channel: PluginChannel;
	readonly #events: PluginEvents;
	readonly #parts: BrokeredParts;
	readonly #logBudget = new RateBudget(LOG_LINES_PER_SECOND, LOG_BURST);
	#owner: StorageOwner | null = null;
	#storage: PluginStorage | null = null;
	#gate: StorageGate | null = null;
	#unwatch = () => {};
	#closed = false;
	#report: UsageReport = emptyReport();
	#reportTimer: ReturnType<typeof setTimeout> | undefined;
	readonly #inbox: PluginInbox;
	/** When its messages last had to wait for its bytes budget. */
	#heldAt = -Infinity;

	constructor(port: MessagePort, events: PluginEvents, parts: BrokeredParts) {
		this.#events = events;
		this.#parts = parts;
		this.#inbox = parts.inboxes.open({
			dropped: () => this.#count((report) => (report.dropped += 1)),
			held: (count) => {
				this.#heldAt = performance.now();
				this.#count((report) => (report.held += count));
			}
		});
		this.#channel = new PluginChannel(
			port,
			{
				onViolation: (why) => this.#halt(`Stopped: ${why}, so it was ended. Reload starts it again.`, false),
				onRefused: (why) =>
					this.#count((report) => {
						report.refused += 1;
						report.last = why;
					})
			},
			undefined,
			this.#inbox
		);
	}

	async ask(question: PageQuestion, kind: AnswerKind): Promise<unknown> {
		const answer = await this.#channel.ask(question, READERS[kind]);
		// Watched from the moment its code is in: a loop in a timer set up on import counts too.
		if (question.t === 'load' && !this.#closed) this.#watch();
		// The registrations of register(ctx): a tool over the bounds never reaches the page.
		if (kind === 'records') return (answer as RegistrationRecord[]).filter((record) => this.#toolProblem(record) === null);
		return answer;
	}

	tell(notice: PageNotice): void {
		this.#channel.tell(notice);
	}

	serve(owner: StorageOwner): void {
		this.#owner = owner;
		const { db, storageBudget, scratch } = this.#parts;
		// A value comes from the plugin's message, and goes back as one: each a copy already.
		this.#storage = scratch.route(owner.pluginId, createPluginStorage(db, owner.pluginId, () => !this.#closed, owner.addedAt, storageBudget, true));
		this.#gate = new StorageGate(owner.pluginId, () => this.#count((report) => report.storageRefused++));
		this.#channel.serve((request) => this.#serveRequest(request));
	}

	close(reason: string): void {
		if (this.#closed) return;
		this.#closed = true;
		this.#unwatch();
		this.#channel.close(new Error(reason));
		this.#flushReport();
	}

	#serveRequest(request: ContextRequest): unknown {
		switch (request.t) {
			case 'register': {
				const refusal = this.#toolProblem(request.record);
				if (refusal) throw new RangeError(refusal);
				return this.#events.register(request.record);
			}
			case 'tool-refused':
				return this.#refuseTool(request.reason);
			case 'unregister':
				return quietly(this.#events.unregister(request.handle));
			case 'log':
				if (request.dropped > 0) this.#count((report) => (report.logDropped += Math.min(request.dropped, MAX_REPORTED_DROPS)));
				// No arguments: only the count of lines the context dropped.
				if (!request.args.length) return;
				if (!this.#logBudget.take()) return this.#count((report) => report.logDropped++);
				return this.#parts.log.append(this.#owner!.pluginId, request.level, request.args);
			case 'storage':
				return this.#gate!.serve(this.#storage!, request);
		}
	}

	/** Why a tool is over the bounds of a tool (counted on its row), or null; null for any other registration. */
	#toolProblem(record: RegistrationRecord): string | null {
		if (record.kind !== 'tool') return null;
		const over = toolBoundsProblem(record);
		if (!over) return null;
		const refusal = toolBoundsMessage(this.#owner?.pluginId ?? 'plugin', record.name, over);
		this.#refuseTool(refusal);
		return refusal;
	}

	#refuseTool(reason: string): void {
		this.#count((report) => {
			report.toolsRefused += 1;
			report.lastTool = reason;
		});
	}

	#watch(): void {
		const watchdog = this.#parts.watchdog;
		this.#unwatch = watchResponses(() => this.#channel.ask({ t: 'ping' }, readTrue), watchdog, (verdict) => {
			const flooding = this.#backlogged() ? this.#parts.inboxes.limits.bytesPerSecond : null;
			this.#halt(describeVerdict(verdict, watchdog, flooding), verdict.kind === 'stuck' && flooding === null);
		});
	}

	/** Its own messages are what kept the checks waiting: some wait now, or recently waited for its bytes budget. */
	#backlogged(): boolean {
		return this.#inbox.waiting > 0 || performance.now() - this.#heldAt < this.#parts.watchdog.busyWindowMs;
	}

	#halt(reason: string, unresponsive: boolean): void {
		if (this.#closed) return;
		this.close(reason);
		quietly(this.#events.halted({ reason, unresponsive }));
	}

	#count(change: (report: UsageReport) => void): void {
		change(this.#report);
		this.#reportTimer ??= setTimeout(() => this.#flushReport(), REPORT_EVERY_MS);
	}

	#flushReport(): void {
		clearTimeout(this.#reportTimer);
		this.#reportTimer = undefined;
		const report = this.#report;
		if (!report.logDropped && !report.refused && !report.storageRefused && !report.held && !report.dropped && !report.toolsRefused) return;
		this.#report = emptyReport();
		quietly(this.#events.usage(report));
	}
}

function emptyReport(): UsageReport {
	return { logDropped: 0, refused: 0, storageRefused: 0, held: 0, dropped: 0, toolsRefused: 0 };
}

/** A notice to the page needs no answer; a page already gone has nothing to say. */
function quietly(notice: unknown): void {
	if (notice instanceof Promise) notice.catch(() => {});
}

/** `floodingRate`: the bytes a second of messages it sent more than, when its own backlog is what kept the checks waiting. */
function describeVerdict(verdict: WatchVerdict, watchdog: Watchdog, floodingRate: number | null): string {
	if (floodingRate !== null) {
		const flooding = `Stopped: it sent the app more than the ${formatBytes(floodingRate)} a second of messages read from one plugin`;
		if (verdict.kind === 'stuck') {
			return `${flooding}, and a check of whether it still answers waited ${Math.round(verdict.waitedMs / 1000)} s behind its own messages, so it was ended. Reload starts it again.`;
		}
		return (
			`${flooding}: over the last ${watchdog.busyWindowMs / 1000} s, half of the app’s checks of it waited more than ${watchdog.busyMedianMs / 1000} s ` +
			`behind its own messages (the median wait was ${(verdict.medianMs / 1000).toFixed(1)} s), so it was ended. Reload starts it again.`
		);
	}
	if (verdict.kind === 'stuck') {
		return `Stopped: its code stopped answering for ${watchdog.stuckAfterMs / 1000} s (an endless loop, or it ran out of memory), so it was ended. Reload starts it again.`;
	}
	return (
		`Stopped: its code kept its processor busy: over the last ${watchdog.busyWindowMs / 1000} s, half of the app’s checks waited more than ` +
		`${watchdog.busyMedianMs / 1000} s for an answer (the median wait was ${(verdict.medianMs / 1000).toFixed(1)} s), so it was ended. Reload starts it again.`
	);
}
