// The authorization server a sign-in was made with is pinned: what is kept of it is bounded and
// over https (or on this computer), a server that names another one later is told apart, and an
// answer to a sign-in must come from the pinned one (RFC 9207 `iss`).
import type { OAuthDiscoveryState } from '@modelcontextprotocol/sdk/client/auth.js';
import { describe, expect, it } from 'vitest';
import { checkAnswerIssuer, discoveryStateOf, otherIssuer, pinIssuer, readPin, sameServer, type IssuerPin } from './issuer-pin';
import { InsecureAddressError } from './secure-url';
import { SignInError } from './sign-in-callback';

const METADATA = {
	issuer: 'https://auth.example/',
	authorization_endpoint: 'https://auth.example/authorize',
	token_endpoint: 'https://auth.example/token',
	registration_endpoint: 'https://auth.example/register',
	response_types_supported: ['code'],
	code_challenge_methods_supported: ['S256'],
	token_endpoint_auth_methods_supported: ['none'],
	service_documentation: 'https://auth.example/docs',
	logo: 'x'.repeat(100_000)
};
const FOUND: OAuthDiscoveryState = { authorizationServerUrl: 'https://auth.example/', authorizationServerMetadata: METADATA };
const PIN: IssuerPin = pinIssuer(FOUND);

describe('pinIssuer', () => {
	it('keeps the server’s address and the endpoints a sign-in and a refresh use, nothing more', () => {
		expect(PIN).toEqual({
			server: 'https://auth.example/',
			metadata: {
				issuer: 'https://auth.example/',
				authorization_endpoint: 'https://auth.example/authorize',
				token_endpoint: 'https://auth.example/token',
				registration_endpoint: 'https://auth.example/register',
				response_types_supported: ['code'],
				code_challenge_methods_supported: ['S256'],
				token_endpoint_auth_methods_supported: ['none']
			}
		});
		expect(pinIssuer({ ...FOUND, authorizationServerMetadata: { ...METADATA, authorization_response_iss_parameter_supported: true } }).metadata.authorization_response_iss_parameter_supported).toBe(true);
	});

	it('pins the SDK’s own endpoints for a server without metadata', () => {
		expect(pinIssuer({ authorizationServerUrl: 'http://127.0.0.1:9000' })).toEqual({
			server: 'http://127.0.0.1:9000/',
			metadata: {
				issuer: 'http://127.0.0.1:9000',
				authorization_endpoint: 'http://127.0.0.1:9000/authorize',
				token_endpoint: 'http://127.0.0.1:9000/token',
				registration_endpoint: 'http://127.0.0.1:9000/register',
				response_types_supported: ['code']
			}
		});
	});

	it('refuses a server or an endpoint over plain http to another computer', () => {
		expect(() => pinIssuer({ authorizationServerUrl: 'http://auth.example/' })).toThrow(InsecureAddressError);
		expect(() => pinIssuer({ ...FOUND, authorizationServerMetadata: { ...METADATA, token_endpoint: 'http://auth.example/token' } })).toThrow(
			'The authorization server’s token endpoint (http://auth.example/token) is refused'
		);
		expect(() => pinIssuer({ ...FOUND, authorizationServerMetadata: { ...METADATA, authorization_endpoint: 'http://evil.example/authorize' } })).toThrow(InsecureAddressError);
		expect(() => pinIssuer({ ...FOUND, authorizationServerMetadata: { ...METADATA, registration_endpoint: 'http://evil.example/register' } })).toThrow(InsecureAddressError);
	});
});

describe('readPin', () => {
	it('reads back a stored pin, and the SDK gets it as its discovery state', () => {
		expect(readPin(JSON.parse(JSON.stringify(PIN)))).toEqual(PIN);
		expect(discoveryStateOf(PIN)).toEqual({ authorizationServerUrl: PIN.server, authorizationServerMetadata: PIN.metadata });
	});

	it('is nothing for what is not a pin', () => {
		for (const value of [undefined, null, 'https://auth.example/', [], {}, { server: PIN.server }, { ...PIN, metadata: { ...PIN.metadata, token_endpoint: 42 } }, { ...PIN, server: 'not an address' }]) {
			expect(readPin(value), JSON.stringify(value)).toBeUndefined();
		}
	});

	it('refuses a stored address over plain http to another computer', () => {
		expect(() => readPin({ ...PIN, metadata: { ...PIN.metadata, token_endpoint: 'http://auth.example/token' } })).toThrow(InsecureAddressError);
	});
});

describe('otherIssuer', () => {
	it('is nothing while the server names the pinned one (or none)', () => {
		expect(otherIssuer(PIN, FOUND)).toBeUndefined();
		expect(otherIssuer(PIN, { ...FOUND, authorizationServerUrl: 'https://auth.example' })).toBeUndefined();
		expect(otherIssuer(PIN, { ...discoveryStateOf(PIN), resourceMetadata: { resource: 'https://tools.example/mcp', authorization_servers: ['https://other.example/', 'https://auth.example'] } })).toBeUndefined();
		expect(otherIssuer(PIN, { ...discoveryStateOf(PIN), resourceMetadata: { resource: 'https://tools.example/mcp' } })).toBeUndefined();
	});

	it('is the server a tool server names instead', () => {
		expect(otherIssuer(PIN, { ...discoveryStateOf(PIN), resourceMetadata: { resource: 'https://tools.example/mcp', authorization_servers: ['https://other.example/'] } })).toBe('https://other.example/');
		expect(otherIssuer(PIN, { authorizationServerUrl: 'https://auth.example/tenant' })).toBe('https://auth.example/tenant');
	});

	it('tells one server from another by its whole address, a trailing "/" aside', () => {
		expect(sameServer('https://auth.example', 'https://auth.example/')).toBe(true);
		expect(sameServer('https://AUTH.example:443/', 'https://auth.example/')).toBe(true);
		expect(sameServer('https://auth.example/a', 'https://auth.example/b')).toBe(false);
		expect(sameServer('http://auth.example/', 'https://auth.example/')).toBe(false);
	});
});

describe('checkAnswerIssuer', () => {
	it('takes an answer naming the pinned server, or naming none from a server that does not name itself', () => {
		expect(() => checkAnswerIssuer(PIN, 'https://auth.example/')).not.toThrow();
		expect(() => checkAnswerIssuer(PIN, undefined)).not.toThrow();
	});

	it('refuses an answer naming another server, even one spelled another way', () => {
		for (const iss of ['https://evil.example/', 'https://auth.example', '', 'https://auth.example/\u202e']) {
			expect(() => checkAnswerIssuer(PIN, iss), iss).toThrow(SignInError);
		}
		expect(() => checkAnswerIssuer(PIN, 'https://evil.example/')).toThrow(
			'The sign-in came back from another authorization server (https://evil.example/) than the one it was sent to (https://auth.example/), and was refused. Press Sign in to try again.'
		);
	});

	it('refuses an answer naming no server from a server that always names itself', () => {
		const strict: IssuerPin = { ...PIN, metadata: { ...PIN.metadata, authorization_response_iss_parameter_supported: true } };
		expect(() => checkAnswerIssuer(strict, undefined)).toThrow('The sign-in came back without naming its authorization server, which https://auth.example/ always does, and was refused.');
		expect(() => checkAnswerIssuer(strict, 'https://auth.example/')).not.toThrow();
	});
});
