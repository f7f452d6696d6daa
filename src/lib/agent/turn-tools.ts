// The tools a turn offers the model: the plugins' and the connected tool servers' together.
// A server's tool is named so that it never takes a plugin tool's name; a call goes to whoever
// offers the name. Only a server's tools ask the user before they run: a plugin's tool is code
// the user already let in, and runs as any of that plugin's code does.
import type { ToolRegistry } from '../plugins/plugin-tools';
import type { ServerTools } from '../tool-servers/server-tools';
import type { TurnTools } from './turn-deps';

/** The tools a chat leaves out (Chat settings): plugin tools by name, tool servers by id. */
export interface ToolsOff {
	plugins: ReadonlySet<string>;
	servers: ReadonlySet<string>;
}

/**
 * The turn's tools, or undefined when there are none (the request then carries no tools). A
 * tool the chat leaves out (`off`) is neither offered nor run, and the others keep the names
 * they have with all of them.
 */
export function combineTools(plugins: ToolRegistry | undefined, servers: ServerTools | undefined, off?: ToolsOff): TurnTools | undefined {
	const reserved = () => new Set(plugins?.list().map((tool) => tool.name) ?? []);
	const isPlugin = (name: string) => plugins?.list().some((tool) => tool.name === name) ?? false;
	const offered = (name: string) => !off?.plugins.has(name);
	const uses = off?.servers.size ? (id: string) => !off.servers.has(id) : undefined;
	const tools: TurnTools = {
		schemas: () => [...(plugins?.schemas().filter((tool) => offered(tool.name)) ?? []), ...(servers?.schemas(reserved(), uses) ?? [])],
		async run(name, args, context) {
			if (!isPlugin(name) && servers?.serverOf(name, reserved(), uses) !== undefined) {
				return servers.run(name, args, { sessionId: context.session_id, callId: context.call_id, signal: context.signal, rewrite: context.rewrite }, reserved(), uses);
			}
			if (plugins && offered(name)) return plugins.run(name, args, { session_id: context.session_id });
			throw new Error(`The model called "${name}", which no plugin or tool server offers in this chat.`);
		},
		serverOf: (name) => (isPlugin(name) ? undefined : servers?.serverOf(name, reserved(), uses))
	};
	return tools.schemas().length ? tools : undefined;
}
