// What Settings stores about a picked GGUF model: its files in shard order (a split model must
// be picked whole), the context it is loaded with, and whether it brings a chat template. Pure.
import type { LocalModelInfo } from '../types';
import type { GgufMetadata } from './read-gguf-metadata';

/**
 * The most context the model is loaded with. Its memory (the KV cache) grows with the context:
 * 8,192 tokens of a 0.5B model take about 100 MB, its full 32,768 about 400 MB.
 */
export const MAX_LOCAL_CONTEXT = 8192;
/** For a GGUF that does not say its context length. */
export const DEFAULT_LOCAL_CONTEXT = 4096;

const SHARD = /-(\d{5})-of-(\d{5})\.gguf$/i;

/** The files in shard order, or a sentence saying what is wrong with the choice. */
export function orderShards<T extends { name: string }>(files: readonly T[]): T[] | string {
	if (files.length === 0) return 'Choose a .gguf model file.';
	const wrong = files.find((file) => !/\.gguf$/i.test(file.name));
	if (wrong) return `${wrong.name} is not a GGUF model file (its name does not end in .gguf).`;
	const shards = files.map((file) => ({ file, match: SHARD.exec(file.name) }));
	if (files.length === 1 && !shards[0].match) return [...files];
	if (shards.some((s) => !s.match)) return 'Choose either one .gguf file or every shard of one split model (names ending in -00001-of-0000N.gguf).';
	const base = (name: string) => name.replace(SHARD, '');
	const total = Number(shards[0].match![2]);
	if (shards.some((s) => base(s.file.name) !== base(files[0].name) || Number(s.match![2]) !== total)) {
		return 'These files are shards of different models. Choose every shard of one model.';
	}
	const byIndex = new Map(shards.map((s) => [Number(s.match![1]), s.file]));
	const missing = Array.from({ length: total }, (_, i) => i + 1).filter((i) => !byIndex.has(i));
	if (missing.length || byIndex.size !== files.length) {
		return `This model is split in ${total} files; choose all of them together${missing.length ? ` (missing: ${missing.map((i) => `shard ${i}`).join(', ')})` : ''}.`;
	}
	return Array.from({ length: total }, (_, i) => byIndex.get(i + 1)!);
}

/** The model's name in the app: its file name, without a shard suffix. */
export function modelName(firstFile: string): string {
	return firstFile.replace(SHARD, '.gguf');
}

export function describeLocalModel(meta: GgufMetadata, files: readonly { name: string; size: number }[]): LocalModelInfo {
	return {
		files: files.map((file) => file.name),
		bytes: files.reduce((sum, file) => sum + file.size, 0),
		context_window: Math.min(meta.contextLength ?? DEFAULT_LOCAL_CONTEXT, MAX_LOCAL_CONTEXT),
		trained_context: meta.contextLength,
		template: meta.chatTemplate ? 'model' : 'fallback'
	};
}
