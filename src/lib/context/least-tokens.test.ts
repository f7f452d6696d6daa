import * as cl100k from 'gpt-tokenizer/encoding/cl100k_base';
import * as o200k from 'gpt-tokenizer/encoding/o200k_base';
import { describe, expect, it } from 'vitest';
import { countTokens } from './count-tokens';
import { leastTokens } from './least-tokens';

const TEXTS = [
	'Never drop the users table.',
	"don't, rock'n'roll, it’s",
	'5², m³ and 1234567 and 12,345.678',
	'Casa do Príncipe Real — €165/night, 9.1 rating',
	'東京タワー and Łódź, “Émile”',
	'<|endoftext|> a_b-c.d config/db.yaml --schema-only',
	'🙂🙂 emoji 👩‍👩‍👧 family',
	'   \n\n  ',
	'PASS tests/auth.test.ts (4 tests)\nTests: 11 passed, 11 total'
];

describe('leastTokens', () => {
	it('is never more than either encoding counts, for text of every kind', () => {
		for (const text of TEXTS) {
			for (const encoder of [o200k, cl100k]) expect(leastTokens(text), text).toBeLessThanOrEqual(countTokens(text, encoder));
			expect(leastTokens(`\n- ${text}`)).toBe(leastTokens(text));
		}
	});

	it('counts each run of letters once and digits three to a piece', () => {
		expect(leastTokens('Never drop the users table.')).toBe(5);
		expect(leastTokens('port 1234567')).toBe(4);
	});
});
