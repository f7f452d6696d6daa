// The tools a turn offers the model: the plugins' and the connected tool servers' together.
// A server's tool is named so that it never takes a plugin tool's name; a call goes to whoever
// offers the name. Only a server's tools ask the user before they run: a plugin's tool is code
// the user already let in, and runs as any of that plugin's code does.
import type { ToolRegistry } from '../plugins/plugin-tools';
import type { ServerTools } from '../tool-servers/server-tools';
import type { TurnTools } from './turn-deps';

/** The turn's tools, or undefined when there are none (the request then carries no tools). */
export function combineTools(plugins: ToolRegistry | undefined, servers: ServerTools | undefined): TurnTools | undefined {
	const reserved = () => new Set(plugins?.list().map((tool) => tool.name) ?? []);
	const isPlugin = (name: string) => plugins?.list().some((tool) => tool.name === name) ?? false;
	const tools: TurnTools = {
		schemas: () => [...(plugins?.schemas() ?? []), ...(servers?.schemas(reserved()) ?? [])],
		async run(name, args, context) {
			if (!isPlugin(name) && servers?.serverOf(name, reserved()) !== undefined) {
				return servers.run(name, args, { callId: context.call_id, signal: context.signal, rewrite: context.rewrite }, reserved());
			}
			if (plugins) return plugins.run(name, args, { session_id: context.session_id });
			throw new Error(`The model called "${name}", which no plugin or tool server offers.`);
		},
		serverOf: (name) => (isPlugin(name) ? undefined : servers?.serverOf(name, reserved()))
	};
	return tools.schemas().length ? tools : undefined;
}
