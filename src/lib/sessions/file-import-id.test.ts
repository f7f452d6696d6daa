import { describe, expect, it } from 'vitest';
import { fileImportId } from './file-import-id';

describe('the import id of a file', () => {
	const block = 4 * 1024 * 1024;
	const long = 'a'.repeat(block - 1) + '😀' + 'b'.repeat(1000);

	it('is the same for the same text, however long, and differs with any character, in any block', async () => {
		expect(await fileImportId(long)).toBe(await fileImportId(`${long}`));
		expect(await fileImportId(long)).not.toBe(await fileImportId(long.slice(0, -1) + 'c'));
		expect(await fileImportId(long)).not.toBe(await fileImportId('c' + long.slice(1)));
		expect(await fileImportId('')).not.toBe(await fileImportId(' '));
	});

	it('a character across the edge of a block is not taken for two replacement characters', async () => {
		expect(await fileImportId(long)).not.toBe(await fileImportId(long.replace('😀', '\uFFFD\uFFFD')));
	});
});
