import { describe, expect, it } from 'vitest';
import { describeLocalModel, MAX_LOCAL_CONTEXT, modelName, orderShards } from './describe-model';
import type { GgufMetadata } from './read-gguf-metadata';

const file = (name: string, size = 10) => ({ name, size });
const META: GgufMetadata = { version: 3, architecture: 'qwen2', name: 'Qwen', contextLength: 32_768, chatTemplate: '{{ x }}', split: null, tensorCount: 10 };

describe('picking the files of an in-browser model', () => {
	it('takes one .gguf file, or every shard of a split model in any order, and puts the shards in order', () => {
		expect(orderShards([file('model.gguf')])).toEqual([file('model.gguf')]);
		const shards = ['m-00003-of-00003.gguf', 'm-00001-of-00003.gguf', 'm-00002-of-00003.gguf'].map((name) => file(name));
		expect((orderShards(shards) as { name: string }[]).map((f) => f.name)).toEqual(['m-00001-of-00003.gguf', 'm-00002-of-00003.gguf', 'm-00003-of-00003.gguf']);
		expect(modelName('m-00001-of-00003.gguf')).toBe('m.gguf');
	});

	it('says what is wrong with a choice it cannot load', () => {
		expect(orderShards([])).toBe('Choose a .gguf model file.');
		expect(orderShards([file('notes.txt')])).toMatch(/notes\.txt is not a GGUF model file/);
		expect(orderShards([file('m-00002-of-00003.gguf')])).toBe('This model is split in 3 files; choose all of them together (missing: shard 1, shard 3).');
		expect(orderShards([file('a-00001-of-00002.gguf'), file('b-00002-of-00002.gguf')])).toMatch(/shards of different models/);
		expect(orderShards([file('a.gguf'), file('b.gguf')])).toMatch(/either one \.gguf file or every shard/);
	});

	it('loads a model with its trained context up to a cap, and notes a missing chat template', () => {
		const info = describeLocalModel(META, [file('m-00001-of-00002.gguf', 100), file('m-00002-of-00002.gguf', 50)]);
		expect(info).toEqual({ files: ['m-00001-of-00002.gguf', 'm-00002-of-00002.gguf'], bytes: 150, context_window: MAX_LOCAL_CONTEXT, trained_context: 32_768, template: 'model' });
		expect(describeLocalModel({ ...META, contextLength: 2048, chatTemplate: null }, [file('m.gguf')])).toMatchObject({ context_window: 2048, template: 'fallback' });
		expect(describeLocalModel({ ...META, contextLength: null }, [file('m.gguf')]).context_window).toBe(4096);
	});
});
