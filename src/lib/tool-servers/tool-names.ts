// The names a tool server's tools are offered to the model under. Providers take 1–64 letters,
// digits, "_" and "-" (TOOL_NAME); a server's own names are up to 128 characters of anything,
// and two servers may both offer "search". So a tool is offered as `<server>__<tool>`, other
// characters made "_", and a name cut to fit, or one that would clash with a name already
// taken, ends in a short hash of the server's and the tool's names. The same tools get the same
// names on every request, so the calls earlier in a conversation still name the right tool.

/** The longest name providers take. */
export const MAX_EXPOSED_NAME = 64;
/** A cut server name keeps at least this much, so the name still says whose tool it is. */
const MIN_SERVER_CHARS = 12;
const OTHER = /[^a-zA-Z0-9_-]+/g;

/** Which tool of which server an exposed name calls. */
export interface ExposedTool {
	serverId: string;
	/** The server's own name for the tool (what tools/call takes). */
	tool: string;
}

/** A name for `toolName` of the server `serverName` that is not in `taken` and that providers take. */
export function exposedToolName(serverName: string, toolName: string, taken: ReadonlySet<string>): string {
	const server = serverName.replace(OTHER, '_') || 'server';
	const tool = toolName.replace(OTHER, '_') || 'tool';
	const plain = `${server}__${tool}`;
	if (plain.length <= MAX_EXPOSED_NAME && !taken.has(plain)) return plain;
	for (let attempt = 0; ; attempt++) {
		const suffix = `_${shortHash(`${serverName}\u0000${toolName}\u0000${attempt}`)}`;
		const name = joinParts(server, tool, MAX_EXPOSED_NAME - suffix.length) + suffix;
		if (!taken.has(name)) return name;
	}
}

/**
 * Names for every tool of every server at once, none of them `reserved` (the plugins' tools).
 * Servers and tools are taken in order of server id and tool name, never in the order given,
 * so a server that lists its tools in another order does not swap their names.
 */
export function toolNamesFor(
	servers: Array<{ serverId: string; serverName: string; tools: string[] }>,
	reserved: ReadonlySet<string>
): Map<string, ExposedTool> {
	const entries = servers.flatMap(({ serverId, serverName, tools }) => tools.map((tool) => ({ serverId, serverName, tool })));
	entries.sort((a, b) => compare(a.serverId, b.serverId) || compare(a.tool, b.tool));
	const taken = new Set(reserved);
	const names = new Map<string, ExposedTool>();
	const seen = new Set<string>();
	for (const { serverId, serverName, tool } of entries) {
		const key = `${serverId}\u0000${tool}`;
		if (seen.has(key)) continue;
		seen.add(key);
		const name = exposedToolName(serverName, tool, taken);
		taken.add(name);
		names.set(name, { serverId, tool });
	}
	return names;
}

/** `<server>__<tool>` in at most `room` characters, the tool's part kept longest. */
function joinParts(server: string, tool: string, room: number): string {
	if (server.length + 2 + tool.length <= room) return `${server}__${tool}`;
	const serverChars = Math.min(server.length, Math.max(MIN_SERVER_CHARS, room - 2 - tool.length));
	return `${server.slice(0, serverChars)}__${tool.slice(0, room - 2 - serverChars)}`;
}

/** Six base-36 characters of a 53-bit hash (cyrb53): the same text, the same suffix, everywhere. */
function shortHash(text: string): string {
	let h1 = 0xdeadbeef;
	let h2 = 0x41c6ce57;
	for (let i = 0; i < text.length; i++) {
		const code = text.charCodeAt(i);
		h1 = Math.imul(h1 ^ code, 2654435761);
		h2 = Math.imul(h2 ^ code, 1597334677);
	}
	h1 = Math.imul(h1 ^ (h1 >>> 16), 2246822507) ^ Math.imul(h2 ^ (h2 >>> 13), 3266489909);
	h2 = Math.imul(h2 ^ (h2 >>> 16), 2246822507) ^ Math.imul(h1 ^ (h1 >>> 13), 3266489909);
	const hash = 4294967296 * (2097151 & h2) + (h1 >>> 0);
	return (hash % 36 ** 6).toString(36).padStart(6, '0');
}

/** Code-unit order: the same in every locale. */
function compare(a: string, b: string): number {
	return a < b ? -1 : a > b ? 1 : 0;
}
