// Built-in and plugin slash commands: registration (plugin names may not take a built-in's,
// even one not built yet), lookup for autocomplete, and execution of plugin commands through
// the hook bus's choke point (timeout, 60 s skip, hook log).
import { copyResult } from '../hooks/copy-result';
import { describeCommandOutput } from '../hooks/describe-result';
import { SUPPRESS_AFTER_TIMEOUT_MS, type PluginCaller, type PluginCallTarget } from '../hooks/run-hook';
import type { CommandSink } from '../plugins/plugin-context';
import { BUILTIN_NAMES, type BuiltinName } from './builtin-names';
import { closeMatches, COMMAND_NAME, parseCommand } from './parse-command';

export interface CommandSource {
	platform: string;
	user_id: string;
	user_name: string;
	chat_id: string;
	thread_id: string;
	profile: string;
}

/** What a command learns about its caller: the second argument of a plugin handler. */
export interface CommandInvocation {
	session_id: string;
	session_key: string;
	platform: string;
	source: CommandSource | null;
}

export interface CommandInfo {
	name: string;
	description: string;
	args_hint: string;
	plugin_id: string | null;
}

export interface CommandResult {
	/** Text shown in the transcript as command output (never sent to the model). */
	output?: string;
	/** False for commands that replace the session (the old transcript is not the place for them). */
	record?: boolean;
	/** Record the command in this session instead (a compaction that rotated into a child). */
	recordIn?: string;
}

export type BuiltinHandler = (args: string, invocation: CommandInvocation) => Promise<CommandResult>;

interface Entry extends CommandInfo {
	run: (args: string, invocation: CommandInvocation) => Promise<CommandResult>;
}

export class CommandRegistry implements CommandSink {
	#entries = new Map<string, Entry>();
	/** Names no plugin may register: every built-in, whether or not it exists yet. */
	readonly #reserved: ReadonlySet<string> = new Set(BUILTIN_NAMES);
	readonly #caller: PluginCaller;

	constructor(caller: PluginCaller) {
		this.#caller = caller;
	}

	addBuiltin(info: Omit<CommandInfo, 'plugin_id'> & { name: BuiltinName }, run: BuiltinHandler): void {
		this.#entries.set(info.name, { ...info, plugin_id: null, run });
	}

	add(pluginId: string, name: string, handler: unknown, meta: { description?: string; args_hint?: string }): () => void {
		if (!COMMAND_NAME.test(name)) {
			throw new Error(`Command names are lowercase letters, digits, "_" and "-" (up to 40); "${name}" is not.`);
		}
		if (this.#reserved.has(name)) throw new Error(`"/${name}" is a built-in command; choose another name.`);
		const owner = this.#entries.get(name);
		if (owner) throw new Error(`"/${name}" is already registered by plugin "${owner.plugin_id}".`);
		if (typeof handler !== 'function') throw new TypeError(`Command "/${name}" needs a handler function.`);
		// One target per command: a handler that timed out is skipped for 60 s, across calls.
		const target: PluginCallTarget = { plugin_id: pluginId, hook: `/${name}`, suppressedUntil: -Infinity };
		const entry: Entry = {
			name,
			description: String(meta.description ?? ''),
			args_hint: String(meta.args_hint ?? ''),
			plugin_id: pluginId,
			run: (args, invocation) => this.#runPlugin(target, handler as (...a: unknown[]) => unknown, args, invocation)
		};
		this.#entries.set(name, entry);
		return () => {
			if (this.#entries.get(name) === entry) this.#entries.delete(name);
		};
	}

	list(): CommandInfo[] {
		return [...this.#entries.values()]
			.map(({ name, description, args_hint, plugin_id }) => ({ name, description, args_hint, plugin_id }))
			.sort((a, b) => a.name.localeCompare(b.name));
	}

	has(name: string): boolean {
		return this.#entries.has(name);
	}

	/** Runs the command in `text`; throws with close matches when it does not exist. */
	async execute(text: string, invocation: CommandInvocation): Promise<CommandResult> {
		const parsed = parseCommand(text);
		if (!parsed) throw new Error('That is not a command. Commands look like /name followed by arguments.');
		const entry = this.#entries.get(parsed.name);
		if (!entry) {
			const near = closeMatches(parsed.name, [...this.#entries.keys()]);
			const hint = near.length ? ` Did you mean ${near.map((n) => `/${n}`).join(', ')}?` : ' Type /help to see the commands.';
			throw new Error(`Unknown command /${parsed.name}.${hint}`);
		}
		return entry.run(parsed.args, invocation);
	}

	async #runPlugin(
		target: PluginCallTarget,
		handler: (...args: unknown[]) => unknown,
		args: string,
		invocation: CommandInvocation
	): Promise<CommandResult> {
		const copy = structuredClone(invocation);
		const result = await this.#caller.callPlugin(
			target,
			// A one-argument handler simply ignores the second argument.
			() => handler(args, copy),
			{
				summary: `session_id=${invocation.session_id} args=(${args.length} chars)`,
				read: readOutput,
				describe: (kept) => describeCommandOutput((kept as CommandResult).output),
				payload: { raw_args: args, context: invocation }
			}
		);
		const name = target.hook;
		if (result.outcome === 'ok') return result.value as CommandResult;
		if (result.outcome === 'timeout') {
			throw new Error(`${name} did not answer within ${result.timeoutMs / 1000} s; it is skipped for the next ${SUPPRESS_AFTER_TIMEOUT_MS / 1000} s.`);
		}
		if (result.outcome === 'skipped') {
			throw new Error(`${name} is skipped for now: it did not answer in time less than ${SUPPRESS_AFTER_TIMEOUT_MS / 1000} s ago.`);
		}
		throw new Error(`${name} failed: ${result.error}`);
	}
}

/** What a handler returned, as command output: text as it is, other values as JSON. */
function readOutput(value: unknown): CommandResult {
	const copy = copyResult(value);
	if (copy === undefined || copy === null) return {};
	return { output: typeof copy === 'string' ? copy : JSON.stringify(copy, null, 2) };
}
