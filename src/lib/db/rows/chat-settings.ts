// One chat's own settings, as its session row and an assistant keep them.
import type { ReasoningEffort } from '../../providers/types';

/**
 * One chat's own settings. Each field left out means "as Settings says" (or the provider's
 * default, for what Settings does not set); see sessions/chat-settings.ts for their bounds.
 */
export interface ChatSettings {
	/** Sent instead of the system prompt of Settings. */
	system_prompt?: string;
	temperature?: number;
	top_p?: number;
	/** The most tokens an answer may take. */
	max_tokens?: number;
	reasoning_effort?: ReasoningEffort;
	/** 'off': this chat never compacts on its own (it asks when full); a number: the percent of the window it compacts at. */
	compaction?: 'off' | number;
	/** Tool servers this chat leaves out, by address. */
	tool_servers_off?: string[];
	/** Plugin tools this chat does not offer the model, by name. */
	plugin_tools_off?: string[];
}
