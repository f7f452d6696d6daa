// Anthropic's compaction blocks: assembled from a stream (a start, then `compaction_delta`s
// that each replace the block's `content` and `encrypted_content`), or read from a whole
// answer, and kept exactly as the server sent them so they go back unchanged. A block whose
// `content` is null is a compaction that failed: the server treats it as a no-op, and so does
// the app. Pure.
import { isRecord } from './frame-checks';
import type { StreamEvent } from './types';

/** The fields a compaction delta replaces on its block. */
const DELTA_FIELDS = ['content', 'encrypted_content'] as const;

export function applyCompactionDelta(block: Record<string, unknown>, delta: Record<string, unknown>): void {
	for (const field of DELTA_FIELDS) if (delta[field] !== undefined) block[field] = delta[field];
}

/**
 * The event a finished compaction block stands for, or null for a failed one. Fields the
 * server left null are not kept: the API refuses a block sent back with fields it did not give.
 */
export function compactionBlockEvent(block: Record<string, unknown>, model: string): StreamEvent | null {
	const kept = Object.fromEntries(Object.entries(block).filter(([, value]) => value !== null && value !== undefined));
	if (typeof kept.content !== 'string' || kept.content === '') return null;
	return { type: 'native_compaction', native: { api: 'anthropic', model, items: [kept], opaque: false }, summary: kept.content };
}

export const isCompactionBlock = (value: unknown): value is Record<string, unknown> & { type: 'compaction' } =>
	isRecord(value) && value.type === 'compaction' && ['content', 'encrypted_content', 'signature'].every((key) => value[key] === undefined || value[key] === null || typeof value[key] === 'string');
