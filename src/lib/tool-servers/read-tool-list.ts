// A server's tools/list result (its pages merged), read as untrusted input: at most MAX_TOOLS
// tools, each with a usable name, plain-text description and title, and an input schema every
// provider takes. What is left out is said in a few plain-text notes for the server's row, so
// a server of 10,000 tools or one broken tool neither floods the row nor breaks every request.
import { isPlainObject } from '../hooks/tool-schema';
import { boundedText, countOf, leftOut } from './plain-text';
import { readInputSchema } from './read-input-schema';
import type { ServerTool, ToolList } from './types';

/** The most tools one server may offer. */
export const MAX_TOOLS = 500;
/** The longest tool name a server may use (what MCP allows). */
export const MAX_TOOL_NAME_CHARS = 128;
/** The longest description or title kept; a longer one is cut with "…". */
export const MAX_TOOL_TEXT_CHARS = 2000;
/** The most entries looked at: a list of thousands of broken tools costs no more than this many. */
const MAX_ENTRIES_READ = 2 * MAX_TOOLS;
/** Tools named one by one in the notes; the rest of a kind are counted. */
const NAMED_IN_NOTES = 10;

// eslint-disable-next-line no-control-regex -- a name is matched for control characters to refuse it
const UNUSABLE_IN_NAME = /[\u0000-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/;

/** `raw`: the result (`{ tools: [...] }`) or its `tools` array. */
export function readToolList(raw: unknown): ToolList {
	const entries = Array.isArray(raw) ? raw : isPlainObject(raw) && Array.isArray(raw.tools) ? raw.tools : null;
	if (!entries) return { tools: [], notes: ["The server's list of tools could not be read: it sent no list of tools."] };
	const tools: ServerTool[] = [];
	const seen = new Set<string>();
	let unnamed = 0;
	const repeated: string[] = [];
	const refused: string[] = [];
	let read = 0;
	for (; read < entries.length && read < MAX_ENTRIES_READ && tools.length < MAX_TOOLS; read++) {
		const entry: unknown = entries[read];
		const name = isPlainObject(entry) ? readName(entry.name) : null;
		if (name === null) {
			unnamed++;
		} else if (seen.has(name)) {
			repeated.push(name);
		} else {
			seen.add(name);
			const tool = entry as Record<string, unknown>;
			const schema = readInputSchema(tool.inputSchema);
			if (schema.ok) tools.push({ name, ...readTexts(tool), inputSchema: schema.schema });
			else refused.push(`Tool "${name}" was left out: ${schema.problem}.`);
		}
	}
	const notes = [...namedNotes(refused, (n) => `${leftOut(n, 'more tool')} for their input schemas.`)];
	notes.push(...namedNotes(repeated.map((name) => `Tool "${name}" is listed more than once; the first is used.`), (n) => `${countOf(n, 'more tool')} ${n === 1 ? 'is' : 'are'} listed more than once.`));
	if (unnamed) notes.push(`${leftOut(unnamed, 'tool')} for want of a usable name: a name is 1 to ${MAX_TOOL_NAME_CHARS} characters, none of them control characters.`);
	const more = entries.length - read;
	if (more) notes.push(`${leftOut(more, 'more tool')}: a server may offer at most ${MAX_TOOLS}.`);
	return { tools, notes };
}

function readName(name: unknown): string | null {
	if (typeof name !== 'string' || !name || name.length > MAX_TOOL_NAME_CHARS || UNUSABLE_IN_NAME.test(name)) return null;
	return name;
}

/** Description and title as plain text; HTML in them stays text, since the app shows only text. */
function readTexts(entry: Record<string, unknown>): Pick<ServerTool, 'title' | 'description'> {
	const description = typeof entry.description === 'string' ? boundedText(entry.description, MAX_TOOL_TEXT_CHARS) : '';
	const annotations = isPlainObject(entry.annotations) ? entry.annotations : {};
	const rawTitle = typeof entry.title === 'string' ? entry.title : annotations.title;
	const title = typeof rawTitle === 'string' ? boundedText(rawTitle, MAX_TOOL_TEXT_CHARS) : '';
	return title ? { title, description } : { description };
}

/** The first few notes as they are, the rest counted in one. */
function namedNotes(notes: string[], rest: (n: number) => string): string[] {
	if (notes.length <= NAMED_IN_NOTES) return notes;
	return [...notes.slice(0, NAMED_IN_NOTES), rest(notes.length - NAMED_IN_NOTES)];
}
