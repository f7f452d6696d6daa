// What the Plugins page offers plugin authors beyond the list: sending a test event to one
// plugin, its storage (read-only) and its recent ctx.log lines (kept across reloads). Loaded with that page
// (PluginsState.loadInspector), not at start-up.
import type { PalimpsestDb } from '../../db/database';
import { kvEntries } from '../../db/plugin-verbs';
import { watch } from '../../db/watch';
import type { HookBus } from '../../hooks/hook-bus';
import { type HookName, isHookName } from '../../hooks/hook-map';
import { DETAIL_LIMITS, previewValue } from '../../hooks/preview-value';
import type { HookLogEntry } from '../../hooks/run-hook';
import { makeTestSessionId, OPTIONAL_FIELDS, samplePayload } from '../../hooks/sample-payloads';
import { PLUGIN_LOG_LIMIT, recentPluginLog } from '../../db/plugin-log-verbs';
import type { PluginLogLine } from '../../plugins/plugin-log-book';
import type { ScratchStorage } from '../../plugins/scratch-storage';

export type { HookName, PluginLogLine };

/** How many stored values the storage view shows. */
export const STORAGE_VIEW_LIMIT = 200;

export interface StorageView {
	entries: { key: string; value: string }[];
	total: number;
}

export interface TestEventOutcome {
	hook: HookName;
	/** One line on what the app would have done with the plugin's answer. */
	headline: string;
	calls: Pick<HookLogEntry, 'outcome' | 'result' | 'warning' | 'error' | 'duration_ms'>[];
	/** Fields the app always sends that the payload lacked, or sends never that it had. */
	notes: string[];
}

/** A plugin's kept log lines; `full`: older ones were dropped to keep PLUGIN_LOG_LIMIT. */
export interface LogView {
	lines: PluginLogLine[];
	full: boolean;
}

type Scratch = Pick<ScratchStorage, 'run' | 'reset'>;

export class PluginInspector {
	readonly #db: PalimpsestDb;
	readonly #hooks: HookBus;
	readonly #scratch: Scratch;
	/** One made-up session id per plugin, kept until the author changes it, so events of one test session follow each other. */
	readonly #sessionIds = new Map<string, string>();

	constructor(parts: { db: PalimpsestDb; hooks: HookBus; scratch: Scratch }) {
		this.#db = parts.db;
		this.#hooks = parts.hooks;
		this.#scratch = parts.scratch;
	}

	/** The session id this plugin's test events use (made up on first use). */
	testSessionId(pluginId: string): string {
		let id = this.#sessionIds.get(pluginId);
		if (!id) this.#sessionIds.set(pluginId, (id = makeTestSessionId()));
		return id;
	}

	/** A new test session: its id, and a fresh scratch copy of the plugin's storage. */
	setTestSessionId(pluginId: string, id: string): void {
		const clean = id.trim();
		if (!clean) throw new Error('A test session id cannot be empty.');
		this.#sessionIds.set(pluginId, clean);
		this.#scratch.reset(pluginId);
	}

	/** The payload "Send test event" starts from: every documented field, and the plugin's test session id. */
	testPayload(pluginId: string, hook: HookName): string {
		return JSON.stringify(samplePayload(hook, this.testSessionId(pluginId)), null, 2);
	}

	/** The hook's optional fields, which the prefilled payload leaves out: `name (type: when)`. */
	optionalFields(hook: HookName): string[] {
		return Object.entries(OPTIONAL_FIELDS[hook] ?? {}).map(([field, note]) => `${field} (${note})`);
	}

	/**
	 * Sends `text` (JSON) as `hook` to one plugin only, marked as a test in the Hook log. Unless
	 * `realStorage`, what the plugin stores while it runs goes to a scratch copy of its storage.
	 */
	async sendTestEvent(pluginId: string, hook: string, text: string, { realStorage = false } = {}): Promise<TestEventOutcome> {
		if (!isHookName(hook)) throw new Error(`Choose a hook; "${hook}" is not one.`);
		const payload = parsePayload(text);
		const fire = () => this.#hooks.fire(hook, payload, { only: pluginId, test: true });
		const report = realStorage ? await fire() : await this.#scratch.run(pluginId, fire);
		const calls = report.calls.map(({ outcome, result, warning, error, duration_ms }) => ({ outcome, result, warning, error, duration_ms }));
		let headline: string;
		if (report.kind === 'collector') {
			headline = report.context ? `Would add ${report.context.length} characters of context to the message.` : 'Would add no context.';
		} else if (report.kind === 'directive') {
			const decision = report.decision!;
			headline = decision.block ? `Would block the tool call: ${decision.reason}` : decision.args ? 'Would run the tool with changed args.' : 'Would let the tool call through unchanged.';
		} else {
			headline = calls.every((c) => c.outcome === 'ok') ? 'Delivered.' : 'Delivered; a callback did not finish cleanly.';
		}
		return { hook, headline, calls, notes: fieldNotes(hook, payload) };
	}

	/** Follows a plugin's stored values (read-only), in this tab and others. */
	watchStorage(pluginId: string, onView: (view: StorageView) => void, onError?: (error: unknown) => void): () => void {
		return watch(
			() => kvEntries(this.#db, pluginId, STORAGE_VIEW_LIMIT),
			({ rows, total }) => onView({ total, entries: rows.map((row) => ({ key: row.key, value: previewValue(row.value, DETAIL_LIMITS) })) }),
			onError
		);
	}

	/** Follows a plugin's kept ctx.log lines (across reloads, from every tab), oldest first. */
	followLog(pluginId: string, onView: (view: LogView) => void, onError?: (error: unknown) => void): () => void {
		return watch(
			() => recentPluginLog(this.#db, pluginId),
			(rows) => onView({ lines: rows.map(({ at, level, text }) => ({ at, level, text })), full: rows.length >= PLUGIN_LOG_LIMIT }),
			onError
		);
	}
}

function parsePayload(text: string): Record<string, unknown> {
	let value: unknown;
	try {
		value = JSON.parse(text);
	} catch (error) {
		throw new Error(`The payload is not valid JSON: ${error instanceof Error ? error.message : String(error)}`, { cause: error });
	}
	if (typeof value !== 'object' || value === null || Array.isArray(value)) throw new Error('The payload must be a JSON object of fields.');
	return value as Record<string, unknown>;
}

function fieldNotes(hook: HookName, payload: Record<string, unknown>): string[] {
	const documented = Object.keys(samplePayload(hook));
	const optional = Object.keys(OPTIONAL_FIELDS[hook] ?? {});
	const missing = documented.filter((field) => !(field in payload));
	const extra = Object.keys(payload).filter((field) => !documented.includes(field) && !optional.includes(field));
	const notes: string[] = [];
	if (missing.length) notes.push(`Missing fields the app always sends: ${missing.join(', ')}.`);
	if (extra.length) notes.push(`Fields the app never sends: ${extra.join(', ')}.`);
	return notes;
}
