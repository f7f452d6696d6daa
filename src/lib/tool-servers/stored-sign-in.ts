// A signed-in server's stored sign-in, as the SDK transport's `authProvider` in the tool-server
// worker: it presents the access token, and lets the SDK refresh it when the server refuses it
// (the new tokens go back to the page, which stores them). Refreshes go to the authorization
// server pinned at sign-in (issuer-pin.ts), given to the SDK as its discovery state; a server
// that names another one later is refused before any token is sent. It never starts a sign-in:
// that needs the user, in a window the page opens, so wherever the SDK would begin one, it
// stops and the server's row asks the user to sign in again.
import type { OAuthClientProvider } from '@modelcontextprotocol/sdk/client/auth.js';
import type { OAuthClientInformationMixed, OAuthTokens } from '@modelcontextprotocol/sdk/shared/auth.js';
import { discoveryStateOf, otherIssuer, readPin, type IssuerPin } from './issuer-pin';
import { clientMetadata } from './oauth-client';
import { boundedText } from './plain-text';
import type { StoredOAuth } from './types';

export const SIGN_IN_ENDED = 'Your sign-in to this server has ended and could not be renewed: sign in again.';

/** Thrown where only the user can go on: the server needs a new sign-in (the message says why). */
export class SignInNeeded extends Error {
	constructor(message = SIGN_IN_ENDED) {
		super(message);
		this.name = 'SignInNeeded';
	}
}

/** Why a sign-in is not used with the authorization server a server names now. */
export function issuerChanged(pin: IssuerPin, other: string): string {
	return `This server now sends its sign-in to another authorization server (${hostOf(other)}) than the one you signed in with (${hostOf(pin.server)}). Nothing of your sign-in was sent there: press Sign in to sign in with it, if you trust it.`;
}

/** What the page hears of a stored sign-in: refreshed tokens to keep, or that it ended. */
export type SignInChange = { type: 'tokens'; tokens: Record<string, unknown> } | { type: 'ended'; error: string };

/**
 * The provider for a server signed in with `stored`, or undefined when there is nothing to
 * present (no tokens, no registered client to refresh them with, or no authorization server
 * pinned to refresh them at). Throws InsecureAddressError for a stored address that is not https
 * (nor on this computer).
 */
export function storedSignIn(stored: StoredOAuth | undefined, onChange: (change: SignInChange) => void): OAuthClientProvider | undefined {
	const client = stored?.client as OAuthClientInformationMixed | undefined;
	const registered = client && 'redirect_uris' in client && Array.isArray(client.redirect_uris) ? client.redirect_uris : [];
	const redirectUrl = typeof registered[0] === 'string' ? registered[0] : '';
	if (!stored?.tokens || !client || !redirectUrl) return undefined;
	const pin = readPin(stored.pin);
	if (!pin) return undefined;
	let tokens: OAuthTokens | undefined = stored.tokens as unknown as OAuthTokens;
	// Over comlink the page answers later, or never once it is gone: nothing here waits for it.
	const tell = (change: SignInChange) => void Promise.resolve().then(() => onChange(change)).catch(() => {});
	const end = (why = SIGN_IN_ENDED) => {
		if (tokens) tell({ type: 'ended', error: why });
		tokens = undefined;
		return new SignInNeeded(why);
	};
	return {
		// The SDK discovers nothing: it refreshes at the pinned server's token endpoint.
		discoveryState: () => discoveryStateOf(pin),
		// Called once the SDK read the resource metadata a 401 named, before it reads the tokens.
		saveDiscoveryState(state) {
			const other = otherIssuer(pin, state);
			if (other) throw end(issuerChanged(pin, other));
		},
		// Never redirected to here; the SDK reads it to know this is an authorization-code client.
		redirectUrl,
		clientMetadata: clientMetadata(redirectUrl),
		clientInformation: () => client,
		tokens: () => tokens,
		async saveTokens(next) {
			tokens = next;
			tell({ type: 'tokens', tokens: { ...next } });
		},
		redirectToAuthorization() {
			throw end();
		},
		saveCodeVerifier() {},
		codeVerifier() {
			throw end();
		},
		// The server refused the refresh token or the client: only a new sign-in helps.
		invalidateCredentials(scope) {
			if (scope === 'all' || scope === 'client' || scope === 'tokens') throw end();
		}
	};
}

/** A server's host, as said to the user. */
function hostOf(address: string): string {
	try {
		return boundedText(new URL(address).host, 200);
	} catch {
		return boundedText(address, 200);
	}
}
