import { describe, expect, it } from 'vitest';
import { CHATML_TEMPLATE, TINY_CONTEXT, tinyGguf } from '../../../../tests/support/tiny-gguf.mjs';
import { bytesSource, GgufError, readGgufMetadata, type ByteSource } from './read-gguf-metadata';

/** A source that counts its reads, to show the header is read in a few chunks. */
function counted(bytes: Uint8Array): ByteSource & { reads: number } {
	const source = { size: bytes.length, reads: 0, read: async (offset: number, length: number) => {
		source.reads++;
		return bytes.slice(offset, offset + length);
	} };
	return source;
}

describe('readGgufMetadata', () => {
	it('reads the architecture, name, context length and chat template of a model', async () => {
		const [file] = tinyGguf({ name: 'Tiny Chat' });
		const source = counted(file);
		const meta = await readGgufMetadata(source);
		expect(meta).toMatchObject({ version: 3, architecture: 'llama', name: 'Tiny Chat', contextLength: TINY_CONTEXT, chatTemplate: CHATML_TEMPLATE, split: null });
		expect(meta.tensorCount).toBeGreaterThan(10);
		// The vocabulary's 300-odd strings are skipped inside one chunk, not read one by one.
		expect(source.reads).toBeLessThanOrEqual(2);
	});

	it('says there is no chat template when the model has none', async () => {
		const [file] = tinyGguf({ template: false });
		expect((await readGgufMetadata(bytesSource(file))).chatTemplate).toBeNull();
	});

	it('reads the first shard of a split model and recognises a later shard', async () => {
		const [first, second] = tinyGguf({ split: 2 });
		expect(await readGgufMetadata(bytesSource(first))).toMatchObject({ architecture: 'llama', split: { index: 0, count: 2 }, contextLength: TINY_CONTEXT });
		expect(await readGgufMetadata(bytesSource(second))).toMatchObject({ architecture: '', split: { index: 1, count: 2 }, chatTemplate: null });
	});

	it('refuses a file that is not GGUF, a truncated header and an impossible length, saying why', async () => {
		const text = new TextEncoder().encode('{"this is": "not a model", "padding": "................"}');
		await expect(readGgufMetadata(bytesSource(text))).rejects.toThrow(/not a GGUF model/);
		const [file] = tinyGguf();
		await expect(readGgufMetadata(bytesSource(file.slice(0, 2000)))).rejects.toThrow(/ends inside its GGUF header/);
		const huge = file.slice();
		// The first key's length (after magic, version and two counts) claims 2^40 bytes.
		new DataView(huge.buffer).setBigUint64(24, 1n << 40n, true);
		await expect(readGgufMetadata(bytesSource(huge))).rejects.toThrow(GgufError);
		const future = file.slice();
		new DataView(future.buffer).setUint32(4, 9, true);
		await expect(readGgufMetadata(bytesSource(future))).rejects.toThrow(/version 9/);
	});
});
