// The context windows of the configured in-browser models, by model name, for the meter and
// the compaction thresholds. Pure.
import type { ProviderConfig } from '../types';

export function localModelWindows(providers: readonly ProviderConfig[]): Record<string, number> {
	const windows: Record<string, number> = {};
	for (const provider of providers) if (provider.preset === 'wllama' && provider.local) windows[provider.model] = provider.local.context_window;
	return windows;
}
