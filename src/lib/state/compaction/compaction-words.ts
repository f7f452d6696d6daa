// Compaction in words, shared by the transcript's markers, the meter's details and /usage. Pure.
import type { CompactionReason } from '../../hooks/hook-payloads';

/** Why a compaction ran. */
export const COMPACTION_REASON_LABELS: Record<CompactionReason, string> = {
	manual: 'you asked for it',
	pre_api: 'the next request would not fit',
	post_tool: 'a tool result filled the context',
	overflow: 'the provider said the request was too long',
	gateway_hygiene: 'the resumed session was large',
	between_turns: 'tidying up after the answer',
	proactive_prune: 'old tool outputs were taking space',
	provider: 'the provider compacted on its own',
	unknown: 'the session no longer fit its model'
};
