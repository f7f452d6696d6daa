import { describe, expect, it } from 'vitest';
import { readServerUrl } from './tool-server-url';

describe('readServerUrl', () => {
	it('takes a full http(s) address as given', () => {
		expect(readServerUrl(' https://tools.example.com/mcp ')).toBe('https://tools.example.com/mcp');
		expect(readServerUrl('http://127.0.0.1:3001/mcp')).toBe('http://127.0.0.1:3001/mcp');
	});

	it('says plainly what is wrong with any other', () => {
		expect(() => readServerUrl('tools.example.com/mcp')).toThrow(/full address/);
		expect(() => readServerUrl('ftp://tools.example.com/mcp')).toThrow(/starts with https:\/\//);
		expect(() => readServerUrl('https://me:secret@tools.example.com/mcp')).toThrow(/Authorization instead/);
	});
});
