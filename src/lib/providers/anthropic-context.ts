// What an Anthropic request asks of the server's context management, and the beta headers
// that go with it: threshold compaction (`compact_20260112`, beta `compact-2026-01-12`), which
// must also be declared on every request that carries its block; compaction on demand (beta
// `compact-2026-09-04`, on the summarizing request and every request carrying its signed
// block, which threshold compaction may not run on); and tool-use clearing
// (`clear_tool_uses_20250919`, beta `context-management-2025-06-27`). Pure.
import { canReplay } from './native-family';
import type { ChatRequest } from './types';

export const THRESHOLD_BETA = 'compact-2026-01-12';
export const ON_DEMAND_BETA = 'compact-2026-09-04';
export const CONTEXT_EDITING_BETA = 'context-management-2025-06-27';

/** The API refuses a compaction trigger below this many input tokens. */
export const MIN_COMPACT_TRIGGER = 50_000;

export interface AnthropicContext {
	betas: string[];
	/** The body's `context_management`, or null for none. */
	contextManagement: { edits: Record<string, unknown>[] } | null;
}

/** The compaction blocks a request carries back, signed (on demand) or not (threshold). */
function carried(request: Pick<ChatRequest, 'messages' | 'model'>): { signed: boolean; threshold: boolean } {
	const blocks = request.messages.flatMap((m) => (m.native && canReplay(m.native, 'anthropic', request.model) ? m.native.items : []));
	const signed = blocks.some((block) => typeof (block as { signature?: unknown }).signature === 'string');
	return { signed, threshold: blocks.length > 0 && !signed };
}

/** `compacting`: the request asks for a summary on demand (it may carry no context management). */
export function anthropicContext(request: Pick<ChatRequest, 'messages' | 'model' | 'tools' | 'context_management'>, compacting = false): AnthropicContext {
	const { signed, threshold } = carried(request);
	const betas = new Set<string>();
	if (signed || compacting) betas.add(ON_DEMAND_BETA);
	if (compacting) return { betas: [...betas], contextManagement: null };
	const wanted = request.context_management;
	const edits: Record<string, unknown>[] = [];
	if (wanted && request.tools?.length) {
		edits.push({ type: 'clear_tool_uses_20250919', trigger: { type: 'input_tokens', value: Math.max(1, Math.floor(wanted.compactAt)) } });
		betas.add(CONTEXT_EDITING_BETA);
	}
	if ((wanted || threshold) && !signed) {
		const edit: Record<string, unknown> = { type: 'compact_20260112' };
		if (wanted) edit.trigger = { type: 'input_tokens', value: Math.max(MIN_COMPACT_TRIGGER, Math.floor(wanted.compactAt)) };
		edits.push(edit);
		betas.add(THRESHOLD_BETA);
	}
	return { betas: [...betas], contextManagement: edits.length ? { edits } : null };
}
