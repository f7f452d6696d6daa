// The page-side stand-ins of one isolated plugin's registrations, by handle: each is a
// function on the page's bus that asks the plugin's context (through the plugin broker) to run
// the real one.
import { HOOK_KINDS, isHookName } from '../../hooks/hook-map';
import type { PluginContext } from '../plugin-context';
import { HistorySender, type HistoryEntry } from './history-delta';
import type { AnswerKind } from '../broker/broker-protocol';
import type { HistoryAnswer, IgnoredValue, PageQuestion, RegistrationRecord } from './wire-protocol';

/** How the page asks the plugin's context: the answer comes back checked as `kind` says. */
export interface PluginLink {
	ask(question: PageQuestion, kind: AnswerKind): Promise<unknown>;
}

export class ProxyRegistrations {
	#undo = new Map<number, () => void>();
	/** What the plugin's context holds of the conversation history, shared by its hooks. */
	readonly #history = new HistorySender();
	readonly #link: PluginLink;
	readonly #ctx: PluginContext;

	constructor(link: PluginLink, ctx: PluginContext) {
		this.#link = link;
		this.#ctx = ctx;
	}

	/** Registers the stand-in on the page's bus; throws the page's refusal (a bad name, a budget). */
	apply(record: RegistrationRecord): void {
		if (this.#undo.has(record.handle)) throw new Error(`Handle ${record.handle} is already registered.`);
		let undo: () => void;
		if (record.kind === 'hook') {
			const observer = isHookName(record.name) && HOOK_KINDS[record.name] === 'observer';
			const call = (payload: unknown) =>
				carriesHistory(payload) ? this.#callWithHistory(record.handle, payload) : this.#link.ask({ t: 'call', handle: record.handle, args: [payload] }, observer ? 'ignored' : 'value');
			undo = this.#ctx.register_hook(record.name, observer ? (payload: unknown) => call(payload).then(standIn) : call);
		} else if (record.kind === 'command') {
			const call = (args: unknown, invocation: unknown) => this.#link.ask({ t: 'call', handle: record.handle, args: [args, invocation] }, 'value');
			undo = this.#ctx.register_command(record.name, call, record.meta);
		} else {
			const { name, description, parameters, handle } = record;
			const handler = (args: unknown, context: unknown) => this.#link.ask({ t: 'call', handle, args: [args, context] }, 'value');
			undo = this.#ctx.register_tool({ name, description, parameters, handler } as Parameters<PluginContext['register_tool']>[0]);
		}
		this.#undo.set(record.handle, undo);
	}

	remove(handle: number): void {
		this.#undo.get(handle)?.();
		this.#undo.delete(handle);
	}

	// Only what the context lacks of the history crosses; after a step it missed, all of it.
	async #callWithHistory(handle: number, payload: PayloadWithHistory): Promise<unknown> {
		const send = () =>
			this.#link.ask({ t: 'history', handle, payload: { ...payload, conversation_history: null }, delta: this.#history.encode(payload.conversation_history) }, 'history') as Promise<HistoryAnswer>;
		let answer = await send();
		if ('resend' in answer) {
			this.#history.forget();
			answer = await send();
		}
		if ('resend' in answer) throw new Error("The plugin's context refused the whole conversation history.");
		return answer.value;
	}
}

type PayloadWithHistory = Record<string, unknown> & { conversation_history: readonly HistoryEntry[] };

function carriesHistory(payload: unknown): payload is PayloadWithHistory {
	return typeof payload === 'object' && payload !== null && Array.isArray((payload as { conversation_history?: unknown }).conversation_history);
}

/** A value of the type an observer returned, for the hook log's note; never read further. */
function standIn(returned: unknown): unknown {
	const value = returned as IgnoredValue | undefined;
	if (!value) return undefined;
	const stands: Record<IgnoredValue['ignored'], unknown> = {
		null: null,
		array: [],
		object: {},
		function: () => {},
		string: '',
		number: 0,
		boolean: false,
		bigint: 0n,
		symbol: Symbol('returned')
	};
	return stands[value.ignored];
}
