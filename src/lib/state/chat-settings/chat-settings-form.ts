// Chat settings as the dialog edits them: the fields of one chat's settings as typed, read back
// into settings (or the first field that does not fit, said in words), what the chat's model
// takes, and the save. Loaded with the dialog, not with the page.
import type { ChatSettings } from '../../db/schema';
import type { ReasoningEffort } from '../../providers/types';
import { CHAT_SETTINGS_LIMITS, readChatSettings } from '../../sessions/chat-settings';
import { setChatSettings } from '../../sessions/set-chat-settings';
import type { ChatState } from '../chat/chat.svelte';
import type { ModelChoice, Services } from '../app/services';

export { CHAT_SETTINGS_LIMITS, REASONING_EFFORTS } from '../../sessions/chat-settings';
export { DEFAULT_SYSTEM_PROMPT } from '../../agent/build-request';
export type { ChatSettings, ReasoningEffort };

/** A number field as bound: a number, or null/undefined while empty. */
type NumberInput = number | null | undefined;

export interface ChatSettingsForm {
	system_prompt: string;
	temperature: NumberInput;
	top_p: NumberInput;
	max_tokens: NumberInput;
	reasoning_effort: ReasoningEffort | '';
	compaction: 'automatic' | 'own' | 'off';
	threshold: NumberInput;
	/** Addresses of the tool servers the chat leaves out (those not set up here kept as they were). */
	tool_servers_off: string[];
	plugin_tools_off: string[];
}

export function formOf(settings: ChatSettings | undefined, defaultThreshold: number): ChatSettingsForm {
	const own = settings?.compaction;
	return {
		system_prompt: settings?.system_prompt ?? '',
		temperature: settings?.temperature,
		top_p: settings?.top_p,
		max_tokens: settings?.max_tokens,
		reasoning_effort: settings?.reasoning_effort ?? '',
		compaction: own === 'off' ? 'off' : own === undefined ? 'automatic' : 'own',
		threshold: typeof own === 'number' ? own : defaultThreshold,
		tool_servers_off: [...(settings?.tool_servers_off ?? [])],
		plugin_tools_off: [...(settings?.plugin_tools_off ?? [])]
	};
}

const L = CHAT_SETTINGS_LIMITS;
const empty = (value: NumberInput) => value === null || value === undefined || Number.isNaN(value);

/** The settings the form says, or the first field that does not fit (its label and why). */
export function settingsOf(form: ChatSettingsForm): { settings: ChatSettings } | { field: string; error: string } {
	const checks: [string, NumberInput, (value: number) => boolean, string][] = [
		['Temperature', form.temperature, (v) => v >= L.temperature[0] && v <= L.temperature[1], `a number from ${L.temperature[0]} to ${L.temperature[1]}`],
		['Top P', form.top_p, (v) => v >= L.topP[0] && v <= L.topP[1], `a number from ${L.topP[0]} to ${L.topP[1]}`],
		['Max answer tokens', form.max_tokens, (v) => Number.isInteger(v) && v >= 1 && v <= L.maxTokens, `a whole number from 1 to ${L.maxTokens.toLocaleString('en')}`],
		['Threshold (%)', form.compaction === 'own' ? form.threshold : undefined, (v) => Number.isInteger(v) && v >= L.threshold[0] && v <= L.threshold[1], `a whole number from ${L.threshold[0]} to ${L.threshold[1]}`]
	];
	for (const [field, value, fits, expected] of checks) if (!empty(value) && !fits(value as number)) return { field, error: `${field} is ${expected}, or empty for the default.` };
	if (form.compaction === 'own' && empty(form.threshold)) return { field: 'Threshold (%)', error: 'Threshold (%) is the percent of the context window this chat compacts at.' };
	if (form.system_prompt.length > L.promptChars) return { field: 'System prompt', error: `System prompt is at most ${L.promptChars.toLocaleString('en')} characters.` };
	const number = (value: NumberInput) => (empty(value) ? undefined : (value as number));
	const settings = readChatSettings({
		system_prompt: form.system_prompt,
		temperature: number(form.temperature),
		top_p: number(form.top_p),
		max_tokens: number(form.max_tokens),
		reasoning_effort: form.reasoning_effort || undefined,
		compaction: form.compaction === 'off' ? 'off' : form.compaction === 'own' ? number(form.threshold) : undefined,
		tool_servers_off: form.tool_servers_off,
		plugin_tools_off: form.plugin_tools_off
	});
	return { settings: settings ?? {} };
}

/** The wire format of the chat's model, where it has a reasoning effort; null for a model in the tab. */
export function reasoningApi(services: Pick<Services, 'settings'>, choice: ModelChoice): 'chat-completions' | 'responses' | 'anthropic' | null {
	const preset = services.settings.get('providers').find((p) => p.id === choice.provider)?.preset;
	if (preset === undefined || preset === 'offline' || preset === 'wllama') return null;
	return preset === 'anthropic' ? 'anthropic' : preset === 'openai' ? 'responses' : 'chat-completions';
}

/**
 * Stores the settings of the chat on show: the open session's (the meter counts them at once),
 * or the draft's, which its first message gives to the session it makes.
 */
export async function saveChatSettings(chat: ChatState, services: Services, settings: ChatSettings): Promise<void> {
	const id = chat.sessionId;
	if (!id) {
		chat.draftSettings = readChatSettings(settings);
		return;
	}
	await setChatSettings(services.sessionContext(), id, settings);
	void services.refreshTokens(id);
}
