import { describe, expect, it } from 'vitest';
import { readServerUrl } from './server-url';

describe('readServerUrl', () => {
	it('keeps a database address, without a trailing slash or fragment', () => {
		expect(readServerUrl(' https://couch.example.com/userdb-616c696365/ ')).toBe('https://couch.example.com/userdb-616c696365');
		expect(readServerUrl('http://127.0.0.1:5984/palimpsest#x')).toBe('http://127.0.0.1:5984/palimpsest');
	});

	it('refuses what is not an http(s) database address, saying what to enter', () => {
		expect(() => readServerUrl('couch.example.com/db')).toThrow(/full address/);
		expect(() => readServerUrl('ftp://couch.example.com/db')).toThrow(/http:\/\/ or https:\/\//);
		expect(() => readServerUrl('https://couch.example.com/')).toThrow(/must name a database/);
		expect(() => readServerUrl('https://couch.example.com/db?x=1')).toThrow(/leave out/);
	});

	it('refuses credentials in the address, which would be stored with it', () => {
		expect(() => readServerUrl('https://alice:secret@couch.example.com/db')).toThrow(/their own fields/);
	});
});
