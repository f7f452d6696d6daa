// Everything a turn talks to, as narrow interfaces so the loop is testable with fakes.
import type { PalimpsestDb } from '../db/database';
import type { StoredToolResult } from '../db/schema';
import type { ImageBytes } from '../tool-servers/types';
import type { ArgsRewrite } from '../tool-servers/approval-choices';
import type { InjectedContext, ToolDecision } from '../hooks/dispatch-results';
import type { CollectorHookName, DirectiveHookName, HookPayload } from '../hooks/hook-map';
import type { Provider, RequestParams, ToolSchema } from '../providers/types';
import type { ContextCounter, NotifyHooks, TurnCompaction } from './compaction-types';

export interface TurnHooks extends NotifyHooks {
	collect<N extends CollectorHookName>(name: N, payload: HookPayload<N>, signal?: AbortSignal): Promise<InjectedContext[]>;
	decide<N extends DirectiveHookName>(name: N, payload: HookPayload<N>): Promise<ToolDecision>;
}

/** What a tool's run gives beside its text: parts for the transcript (a tool server's result). */
export interface ToolRunResult {
	text: string;
	stored?: StoredToolResult;
	/** The bytes of the images `stored` refers to, kept with it. */
	images?: ImageBytes[];
	/** The user denied the call: the tool did not run. */
	denied?: true;
}

export interface TurnTools {
	schemas(): ToolSchema[];
	/**
	 * Runs a tool and returns its result as text (or text and what the transcript shows of it);
	 * throws with a readable message on failure. `signal` stops it (a tool server's call is
	 * cancelled on the server). `rewrite` is set when plugins changed the model's arguments into
	 * `args` (a tool server's tool then asks the user again).
	 */
	run(
		name: string,
		args: Record<string, unknown>,
		context: { session_id: string; call_id: string; signal?: AbortSignal; rewrite?: ArgsRewrite }
	): Promise<string | ToolRunResult>;
	/** The tool server a tool comes from, by its name; undefined for a plugin's or a built-in tool. */
	serverOf?(name: string): string | undefined;
}

export interface TurnDeps {
	db: PalimpsestDb;
	provider: Provider;
	model: string;
	profile: string;
	platform: string;
	hooks?: TurnHooks;
	tools?: TurnTools;
	systemPrompt?: string;
	/** What the chat asks of the model beside its messages (Chat settings); each unset one is not sent. */
	params?: RequestParams;
	/** When compaction runs inside the turn (thresholds, overflow, the provider's own). */
	compaction?: TurnCompaction;
	/** Display name of a plugin, for the "Context added by plugins" disclosure. */
	pluginName?: (pluginId: string) => string;
	/**
	 * The token counter: an answer's text is counted while its final write commits, so the
	 * request estimate after it is ready without a call to the worker.
	 */
	counter?: Pick<ContextCounter, 'countTexts'>;
	/** How often streamed text is checkpointed to the database. */
	checkpointMs?: number;
	/** Upper bound on model requests in one turn (tool rounds). */
	maxRounds?: number;
	now?: () => number;
}

export type TurnEvent =
	| { type: 'user_stored'; key: [string, number] }
	| { type: 'started'; key: [string, number] }
	| { type: 'text'; key: [string, number]; text: string }
	/** What the provider is doing before the answer's first words (shown in its place). */
	| { type: 'status'; key: [string, number]; text: string }
	| { type: 'finished'; key: [string, number]; status: string }
	/**
	 * Storage refused the answer's final write: `text` exists only in memory now. The turn has
	 * ended; the caller keeps the text (shown, copyable) and stores it once storage works again.
	 */
	| { type: 'unsaved'; key: [string, number]; text: string; error: string; cause: unknown }
	/** A compaction rotated the session: the turn goes on in the child session `to`. */
	| { type: 'rotated'; from: string; to: string };
