// The authorization server a sign-in was made with, pinned: its address and endpoints are kept
// with the tokens, given back to the SDK as its discovery state, so a refresh goes to the token
// endpoint the user signed in through and never to one that a server (or a later metadata
// document) names. A tool server that names another authorization server later is refused, and
// the answer to a sign-in must come from the server it was sent to (RFC 9207 `iss`).
import type { OAuthDiscoveryState } from '@modelcontextprotocol/sdk/client/auth.js';
import type { OAuthMetadata } from '@modelcontextprotocol/sdk/shared/auth.js';
import { boundedText } from './plain-text';
import { requireSecureUrl } from './secure-url';
import { SignInError } from './sign-in-callback';

/** What is kept of the authorization server's metadata: what a sign-in and a refresh use. */
export interface PinnedMetadata {
	issuer: string;
	authorization_endpoint: string;
	token_endpoint: string;
	registration_endpoint?: string;
	response_types_supported: string[];
	code_challenge_methods_supported?: string[];
	token_endpoint_auth_methods_supported?: string[];
	/** RFC 9207: the server names itself (`iss`) in every answer to a sign-in. */
	authorization_response_iss_parameter_supported?: boolean;
}

export interface IssuerPin {
	/** The authorization server's address, as the tool server named it at sign-in. */
	server: string;
	metadata: PinnedMetadata;
}

/** Characters of an address kept, and of a list's items; items of a list. */
const MAX_URL = 2_048;
const MAX_WORD = 100;
const MAX_WORDS = 20;

/**
 * The pin of what discovery found at sign-in: the server's metadata, or the SDK's own defaults
 * when it has none (/authorize, /token and /register on its address). Throws, saying which,
 * if the server or an endpoint is not https (nor on this computer).
 */
export function pinIssuer(state: OAuthDiscoveryState): IssuerPin {
	const server = requireSecureUrl(state.authorizationServerUrl, 'The authorization server').href;
	const found = state.authorizationServerMetadata as (OAuthMetadata & Record<string, unknown>) | undefined;
	const metadata: PinnedMetadata = found
		? {
				issuer: found.issuer,
				authorization_endpoint: found.authorization_endpoint,
				token_endpoint: found.token_endpoint,
				registration_endpoint: found.registration_endpoint,
				response_types_supported: found.response_types_supported,
				code_challenge_methods_supported: found.code_challenge_methods_supported,
				token_endpoint_auth_methods_supported: found.token_endpoint_auth_methods_supported,
				authorization_response_iss_parameter_supported: found.authorization_response_iss_parameter_supported === true
			}
		: {
				issuer: state.authorizationServerUrl,
				authorization_endpoint: new URL('/authorize', server).href,
				token_endpoint: new URL('/token', server).href,
				registration_endpoint: new URL('/register', server).href,
				response_types_supported: ['code']
			};
	const pin = readPin({ server, metadata });
	if (!pin) throw new Error('The authorization server’s metadata could not be read.');
	return pin;
}

/**
 * A stored pin, checked as it is read: plain data of the expected kinds, bounded, every address
 * https or on this computer. Throws InsecureAddressError for an address that is not; undefined
 * for anything else that is not a pin.
 */
export function readPin(value: unknown): IssuerPin | undefined {
	if (!isRecord(value) || !isRecord(value.metadata)) return undefined;
	const m = value.metadata;
	const server = url(value.server, 'The authorization server');
	const authorization = url(m.authorization_endpoint, 'The authorization server’s sign-in page');
	const token = url(m.token_endpoint, 'The authorization server’s token endpoint');
	const registration = m.registration_endpoint === undefined ? undefined : url(m.registration_endpoint, 'The authorization server’s registration endpoint');
	const responseTypes = words(m.response_types_supported);
	if (!server || !authorization || !token || registration === null || !responseTypes || typeof m.issuer !== 'string' || m.issuer.length > MAX_URL) return undefined;
	const metadata: PinnedMetadata = { issuer: m.issuer, authorization_endpoint: authorization, token_endpoint: token, response_types_supported: responseTypes };
	if (registration) metadata.registration_endpoint = registration;
	const challenges = words(m.code_challenge_methods_supported);
	if (challenges) metadata.code_challenge_methods_supported = challenges;
	const methods = words(m.token_endpoint_auth_methods_supported);
	if (methods) metadata.token_endpoint_auth_methods_supported = methods;
	if (m.authorization_response_iss_parameter_supported === true) metadata.authorization_response_iss_parameter_supported = true;
	return { server, metadata };
}

/** The pin as the SDK's discovery state: auth() then uses this server and these endpoints, and discovers none. */
export function discoveryStateOf(pin: IssuerPin): OAuthDiscoveryState {
	return { authorizationServerUrl: pin.server, authorizationServerMetadata: pin.metadata as OAuthMetadata };
}

/**
 * The authorization server a tool server names now instead of the pinned one, if it names
 * another: in `state`, the discovery the SDK made on the server's word (its 401's resource
 * metadata lists the servers it takes tokens of).
 */
export function otherIssuer(pin: IssuerPin, state: OAuthDiscoveryState): string | undefined {
	if (!sameServer(state.authorizationServerUrl, pin.server)) return String(state.authorizationServerUrl);
	const named = state.resourceMetadata?.authorization_servers ?? [];
	if (named.length === 0 || named.some((server) => sameServer(server, pin.server))) return undefined;
	return String(named[0]);
}

/**
 * Checks that an answer to a sign-in came from the pinned server (RFC 9207): an `iss` it gave
 * must be its issuer, and a server that says it always gives one must have. Throws SignInError
 * saying so.
 */
export function checkAnswerIssuer(pin: IssuerPin, iss: string | undefined): void {
	const { issuer } = pin.metadata;
	if (iss === undefined) {
		if (!pin.metadata.authorization_response_iss_parameter_supported) return;
		throw new SignInError(`The sign-in came back without naming its authorization server, which ${boundedText(issuer, 200)} always does, and was refused. Press Sign in to try again.`);
	}
	// RFC 9207 §2.4: compared as strings, exactly.
	if (iss === issuer) return;
	throw new SignInError(
		`The sign-in came back from another authorization server (${boundedText(iss, 200)}) than the one it was sent to (${boundedText(issuer, 200)}), and was refused. Press Sign in to try again.`
	);
}

/** Two addresses of one authorization server: the same URL, a trailing "/" aside. */
export function sameServer(a: string | URL, b: string | URL): boolean {
	const strip = (value: string | URL) => {
		try {
			return new URL(value).href.replace(/\/$/, '');
		} catch {
			return String(value);
		}
	};
	return strip(a) === strip(b);
}

function isRecord(value: unknown): value is Record<string, unknown> {
	return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** `value` as a usable address (undefined: none; null: not an address); throws InsecureAddressError for plain http to another computer. */
function url(value: unknown, what: string): string | null {
	if (typeof value !== 'string' || value.length > MAX_URL || !URL.canParse(value)) return null;
	return requireSecureUrl(value, what).href;
}

/** `value` as a short list of short strings, or undefined. */
function words(value: unknown): string[] | undefined {
	if (!Array.isArray(value)) return undefined;
	return value.filter((item): item is string => typeof item === 'string' && item.length <= MAX_WORD).slice(0, MAX_WORDS);
}
