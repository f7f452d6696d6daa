// Which provider may be sent a compaction item back: only the wire family that made it, and
// only a model of the same family (a dated snapshot of the same model counts as the same).
// Pure.
import type { NativeApi, NativeCompaction } from './types';

/** The model without its date snapshot or `-latest`: "claude-sonnet-4-5-20250929" → "claude-sonnet-4-5". */
export function modelFamily(model: string): string {
	return model
		.trim()
		.toLowerCase()
		.replace(/-latest$/, '')
		.replace(/-(\d{8}|\d{4}-\d{2}-\d{2})$/, '');
}

/**
 * True when a provider speaking `api` with `model` may be sent `native` back unchanged; with
 * `provider` (its entry in Settings), only when that is the entry that returned it.
 */
export function canReplay(native: NativeCompaction, api: NativeApi | undefined, model: string, provider?: string): boolean {
	return api !== undefined && native.api === api && modelFamily(native.model) === modelFamily(model) && sentBy(native, provider);
}

/** True unless `native` is known to come from a provider entry other than `provider`. */
export const sentBy = (native: NativeCompaction, provider: string | undefined): boolean =>
	provider === undefined || native.provider === undefined || native.provider === provider;

/** `native` as it is stored: with the provider entry that returned it. */
export const fromProvider = (native: NativeCompaction, provider: string): NativeCompaction => ({ ...native, provider });

/** What stands for a summary only the provider can read, in the transcript and for other models. */
export const OPAQUE_SUMMARY = 'The provider compacted the earlier conversation into an encrypted summary that only it can read.';
