// Always allow covers the arguments the model chose: arguments a plugin rewrote ask every time,
// with Allow once and Deny only, and an answer to them never becomes Always allow.
import { describe, expect, it } from 'vitest';
import { approvalChoices, keepsAlways, type ArgsRewrite } from './approval-choices';

const REWRITE: ArgsRewrite = { modelArgs: { message: 'hello' }, plugins: ['Argument rewriter'] };

describe('approvalChoices', () => {
	it('asks with every answer before a tool not always allowed runs with the model’s own arguments', () => {
		expect(approvalChoices(false, undefined)).toEqual(['once', 'always', 'deny']);
	});

	it('runs an always allowed tool with the model’s own arguments without asking', () => {
		expect(approvalChoices(true, undefined)).toBeNull();
	});

	it('asks again when a plugin changed the arguments, always allowed or not, offering Allow once and Deny only', () => {
		expect(approvalChoices(true, REWRITE)).toEqual(['once', 'deny']);
		expect(approvalChoices(false, REWRITE)).toEqual(['once', 'deny']);
	});
});

describe('keepsAlways', () => {
	it('keeps Always allow only when it was the answer for the model’s own arguments', () => {
		expect(keepsAlways('always', undefined)).toBe(true);
		expect(keepsAlways('once', undefined)).toBe(false);
		expect(keepsAlways('deny', undefined)).toBe(false);
		expect(keepsAlways('always', REWRITE)).toBe(false);
	});
});
