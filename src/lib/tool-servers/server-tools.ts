// The tools of the user's connected tool servers, as the turn uses them: offered to the model
// under names unique across servers and plugins, asked for on their first call (Allow once,
// Always allow, Deny; asked again whenever a plugin changed the arguments), run in the
// tool-server worker with progress, a time limit and Stop, and answered with text for the model
// and parts for the transcript.
import type { ToolSchema } from '../providers/types';
import { approvalChoices, keepsAlways, type Approval, type ArgsRewrite } from './approval-choices';
import { toolNamesFor } from './tool-names';
import type { CallProgress, CallResult, ImageBytes, KeptPart, ServerInfo, ServerTool, ToolServerConfig } from './types';

export type { Approval, ArgsRewrite };

/** What a user is asked before a tool of a server runs. */
export interface ApprovalRequest {
	/** The call asked about: its session, and its id in the answer that made it. */
	sessionId: string;
	callId: string;
	serverId: string;
	serverName: string;
	tool: string;
	/** The arguments it would run with. */
	args: Record<string, unknown>;
	/** Set when plugins changed the model's arguments: the model's own, and the plugins. */
	rewrite?: ArgsRewrite;
	/** The answers offered (no "Always allow" for arguments a plugin changed). */
	choices: readonly Approval[];
}

/** What a tool server's call gives the turn: text for the model, what the transcript keeps of it, and its images' bytes. */
export interface ServerToolResult {
	text: string;
	stored: { server: string; is_error: boolean; parts: KeptPart[] };
	images: ImageBytes[];
	/** The user denied the call: it never reached the server. */
	denied?: true;
}

/** The worker's side, as seen from here (a comlink remote in the app, the API itself in tests). */
export interface ToolServerCalls {
	call(
		request: { serverId: string; callId: string; tool: string; args: Record<string, unknown>; timeoutMs: number },
		onProgress: (progress: CallProgress) => void
	): Promise<CallResult>;
	cancel(callId: string): unknown;
}

export interface ServerToolsDeps {
	calls: () => Promise<ToolServerCalls>;
	configs: () => readonly ToolServerConfig[];
	/** Asks the user; a stopped turn (`signal`) takes its question back. */
	approve(request: ApprovalRequest, signal?: AbortSignal): Promise<Approval>;
	/** Keeps "Always allow" for the tool on its server's row. */
	allowAlways(serverId: string, tool: string): Promise<unknown>;
	timeoutMs(): number;
	/** A call's progress, or null once it ended. */
	onProgress(callId: string, progress: CallProgress | null): void;
	/** A call failed on the server's side (gone, refusing): its connection is looked at again. */
	onCallFailed?(serverId: string): void;
}

interface Connected {
	info: ServerInfo;
	tools: ServerTool[];
}

interface Exposed {
	serverId: string;
	serverName: string;
	tool: ServerTool;
}

export const DENIED = 'The user denied this tool call.';

/** Which servers' tools a request may offer, by server id. */
export type ServerFilter = (serverId: string) => boolean;
const ALL_SERVERS: ServerFilter = () => true;

export class ServerTools {
	#connected = new Map<string, Connected>();
	readonly #deps: ServerToolsDeps;

	constructor(deps: ServerToolsDeps) {
		this.#deps = deps;
	}

	/** A server connected (or reconnected): its tools are offered from the next request on. */
	setConnected(serverId: string, info: ServerInfo, tools: ServerTool[]): void {
		this.#connected.set(serverId, { info, tools });
	}

	/** A server went (removed, unreachable): its tools are no longer offered. */
	setGone(serverId: string): void {
		this.#connected.delete(serverId);
	}

	/**
	 * The enabled tools of connected servers, by the name the model knows them by; only those of
	 * the servers `uses` lets in (a chat may leave some out), named as they would be with all.
	 */
	exposed(reserved: ReadonlySet<string>, uses: ServerFilter = ALL_SERVERS): Map<string, Exposed> {
		const configs = new Map(this.#deps.configs().map((config) => [config.id, config]));
		const servers = [...this.#connected].flatMap(([serverId, connected]) => {
			const config = configs.get(serverId);
			if (!config) return [];
			const disabled = new Set(config.disabled_tools);
			const tools = connected.tools.filter((tool) => !disabled.has(tool.name));
			return [{ serverId, serverName: connected.info.name, tools }];
		});
		const names = toolNamesFor(
			servers.map(({ serverId, serverName, tools }) => ({ serverId, serverName, tools: tools.map((tool) => tool.name) })),
			reserved
		);
		const exposed = new Map<string, Exposed>();
		for (const [name, { serverId, tool }] of names) {
			if (!uses(serverId)) continue;
			const server = servers.find((s) => s.serverId === serverId)!;
			exposed.set(name, { serverId, serverName: server.serverName, tool: server.tools.find((t) => t.name === tool)! });
		}
		return exposed;
	}

	schemas(reserved: ReadonlySet<string>, uses?: ServerFilter): ToolSchema[] {
		return [...this.exposed(reserved, uses)].map(([name, { tool }]) => ({ name, description: tool.description, parameters: tool.inputSchema }));
	}

	/** Every connected server's instructions (of those `uses` lets in), by its name, for the system prompt. */
	instructions(uses: ServerFilter = ALL_SERVERS): Array<{ server: string; text: string }> {
		return [...this.#connected].filter(([id, { info }]) => info.instructions && uses(id)).map(([, { info }]) => ({ server: info.name, text: info.instructions }));
	}

	/** The server a tool the model knows by `name` comes from, if any. */
	serverOf(name: string, reserved: ReadonlySet<string>, uses?: ServerFilter): string | undefined {
		return this.exposed(reserved, uses).get(name)?.serverName;
	}

	/**
	 * Runs the tool the model knows by `name` with `args`: asks first unless always allowed and
	 * the arguments are the model's own (`context.rewrite` says plugins changed them), then calls
	 * it. A denial is the tool's answer; a failure of the call throws with what to do.
	 */
	async run(
		name: string,
		args: Record<string, unknown>,
		context: { sessionId: string; callId: string; signal?: AbortSignal; rewrite?: ArgsRewrite },
		reserved: ReadonlySet<string>,
		uses?: ServerFilter
	): Promise<ServerToolResult> {
		const found = this.exposed(reserved, uses).get(name);
		if (!found) throw new Error(`The model called "${name}", which no connected tool server offers now.`);
		const { serverId, serverName, tool } = found;
		const config = this.#deps.configs().find((c) => c.id === serverId);
		const { rewrite } = context;
		const choices = approvalChoices(config?.always_allowed.includes(tool.name) ?? false, rewrite);
		if (choices) {
			const asked = { sessionId: context.sessionId, callId: context.callId, serverId, serverName, tool: tool.name, args, choices, ...(rewrite ? { rewrite } : {}) };
			const approval = await this.#deps.approve(asked, context.signal);
			if (approval === 'deny') return { text: DENIED, stored: { server: serverName, is_error: true, parts: [{ type: 'note', text: 'You denied this tool call.' }] }, images: [], denied: true };
			if (keepsAlways(approval, rewrite)) await this.#deps.allowAlways(serverId, tool.name);
		}
		context.signal?.throwIfAborted();
		const calls = await this.#deps.calls();
		const stop = () => void Promise.resolve(calls.cancel(context.callId)).catch(() => {});
		context.signal?.addEventListener('abort', stop, { once: true });
		try {
			const result = await calls.call(
				{ serverId, callId: context.callId, tool: tool.name, args, timeoutMs: this.#deps.timeoutMs() },
				(progress) => this.#deps.onProgress(context.callId, progress)
			);
			return { text: result.forModel, stored: { server: serverName, is_error: result.isError, parts: result.parts }, images: result.images };
		} catch (error) {
			if (!context.signal?.aborted) this.#deps.onCallFailed?.(serverId);
			throw error;
		} finally {
			context.signal?.removeEventListener('abort', stop);
			this.#deps.onProgress(context.callId, null);
		}
	}
}
