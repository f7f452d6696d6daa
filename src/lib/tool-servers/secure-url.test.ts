// Requests of tool servers and sign-ins go over https, or plain http to this computer only.
import { describe, expect, it } from 'vitest';
import { InsecureAddressError, isSecureUrl, requireSecureUrl, secureFetch } from './secure-url';

describe('isSecureUrl', () => {
	it('takes https anywhere and http to this computer only', () => {
		for (const ok of ['https://auth.example/token', 'https://10.0.0.2/', 'http://localhost:8080/x', 'http://127.0.0.1:9/', 'http://[::1]:3000/mcp', 'HTTP://LOCALHOST/']) expect(isSecureUrl(new URL(ok)), ok).toBe(true);
		for (const no of ['http://auth.example/token', 'http://192.168.0.10/', 'http://localhost.evil.example/', 'http://127.0.0.1.nip.io/', 'ftp://localhost/', 'javascript:alert(1)', 'data:text/html,x']) expect(isSecureUrl(new URL(no)), no).toBe(false);
	});
});

describe('requireSecureUrl', () => {
	it('says what was refused, without its query or password', () => {
		expect(() => requireSecureUrl('http://user:pw@auth.example/token?secret=1', 'The token endpoint')).toThrow(
			new InsecureAddressError(new URL('http://auth.example/token'), 'The token endpoint')
		);
		expect(() => requireSecureUrl('http://auth.example/token?secret=1', 'The token endpoint')).toThrow(
			'The token endpoint (http://auth.example/token) is refused: only https is used, or plain http to this computer (localhost, 127.0.0.1 or [::1]).'
		);
		expect(() => requireSecureUrl('not an address', 'The token endpoint')).toThrow(InsecureAddressError);
	});
});

describe('secureFetch', () => {
	it('sends nothing to an address that may not be used', async () => {
		const sent: string[] = [];
		const fetchImpl = secureFetch(async (input) => {
			sent.push(String(input instanceof Request ? input.url : input));
			return new Response('ok');
		});
		await expect(fetchImpl('http://auth.example/.well-known/oauth-authorization-server')).rejects.toThrow(InsecureAddressError);
		await expect(fetchImpl(new Request('http://auth.example/token', { method: 'POST', body: 'refresh_token=r' }))).rejects.toThrow(InsecureAddressError);
		await expect(fetchImpl(new URL('https://auth.example/token'))).resolves.toBeInstanceOf(Response);
		await expect(fetchImpl('http://127.0.0.1:9/token')).resolves.toBeInstanceOf(Response);
		expect(sent).toEqual(['https://auth.example/token', 'http://127.0.0.1:9/token']);
	});
});
