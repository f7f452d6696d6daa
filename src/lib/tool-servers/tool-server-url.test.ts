import { describe, expect, it } from 'vitest';
import { readServerUrl } from './tool-server-url';

describe('readServerUrl', () => {
	it('takes a full https address, or an http one on this computer, as given', () => {
		expect(readServerUrl(' https://tools.example.com/mcp ')).toBe('https://tools.example.com/mcp');
		expect(readServerUrl('http://127.0.0.1:3001/mcp')).toBe('http://127.0.0.1:3001/mcp');
		expect(readServerUrl('http://localhost:3001/mcp')).toBe('http://localhost:3001/mcp');
		expect(readServerUrl('http://[::1]:3001/mcp')).toBe('http://[::1]:3001/mcp');
	});

	it('says plainly what is wrong with any other', () => {
		expect(() => readServerUrl('tools.example.com/mcp')).toThrow(/full address/);
		expect(() => readServerUrl('ftp://tools.example.com/mcp')).toThrow(/starts with https:\/\//);
		expect(() => readServerUrl('https://me:secret@tools.example.com/mcp')).toThrow(/Authorization instead/);
	});

	it('refuses plain http to another computer', () => {
		for (const address of ['http://tools.example.com/mcp', 'http://192.168.1.20:3001/mcp', 'http://localhost.example.com/mcp', 'http://127.0.0.1.example.com/mcp']) {
			expect(() => readServerUrl(address), address).toThrow('A tool server’s address starts with https:// (http:// only for one on this computer: localhost, 127.0.0.1 or [::1]).');
		}
	});
});
