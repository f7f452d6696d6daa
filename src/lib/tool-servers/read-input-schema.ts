// A tool's inputSchema as a server sent it, made into what every provider takes: plain JSON
// data with type "object" at the root, bounded in size and depth, the plugin tools' rules
// applied (hooks/tool-schema.ts). A schema that cannot be made so leaves its tool out, since a
// provider would refuse every request that offered it.
import { NO_ARGUMENTS, schemaProblem } from '../hooks/tool-schema';
import { copyJson } from './copy-json';

/** The most characters a schema may take as JSON. */
export const MAX_SCHEMA_CHARS = 64 * 1024;
/** The deepest a schema may nest objects and arrays. */
export const MAX_SCHEMA_DEPTH = 32;

export type SchemaRead = { ok: true; schema: Record<string, unknown> } | { ok: false; problem: string };

/** The schema to offer providers, or what is wrong with it (a sentence's end: "inputSchema.type must be…"). */
export function readInputSchema(raw: unknown): SchemaRead {
	if (raw === undefined) return { ok: true, schema: structuredClone(NO_ARGUMENTS) };
	const copy = copyJson(raw, { maxChars: MAX_SCHEMA_CHARS, maxDepth: MAX_SCHEMA_DEPTH });
	if (!copy.ok) return { ok: false, problem: `inputSchema ${copy.problem}` };
	const problem = schemaProblem(copy.value, 'inputSchema');
	if (problem) return { ok: false, problem };
	const schema = copy.value as Record<string, unknown>;
	// Meta keys some providers refuse at the root; deeper ones may be what a "$ref" points at.
	delete schema.$schema;
	delete schema.$id;
	schema.properties ??= {};
	return { ok: true, schema };
}
