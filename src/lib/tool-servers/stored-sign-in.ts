// A signed-in server's stored sign-in, as the SDK transport's `authProvider` in the tool-server
// worker: it presents the access token, and lets the SDK refresh it when the server refuses it
// (the new tokens go back to the page, which stores them). It never starts a sign-in: that
// needs the user, in a window the page opens, so wherever the SDK would begin one, it stops
// and the server's row asks the user to sign in again.
import type { OAuthClientProvider } from '@modelcontextprotocol/sdk/client/auth.js';
import type { OAuthClientInformationMixed, OAuthTokens } from '@modelcontextprotocol/sdk/shared/auth.js';
import { clientMetadata } from './oauth-client';
import type { StoredOAuth } from './types';

export const SIGN_IN_ENDED = 'Your sign-in to this server has ended and could not be renewed: sign in again.';

/** Thrown where only the user can go on: the server needs a new sign-in. */
export class SignInNeeded extends Error {
	constructor() {
		super(SIGN_IN_ENDED);
		this.name = 'SignInNeeded';
	}
}

/** What the page hears of a stored sign-in: refreshed tokens to keep, or that it ended. */
export type SignInChange = { type: 'tokens'; tokens: Record<string, unknown> } | { type: 'ended'; error: string };

/**
 * The provider for a server signed in with `stored`, or undefined when there is nothing to
 * present (no tokens, or no registered client to refresh them with).
 */
export function storedSignIn(stored: StoredOAuth | undefined, onChange: (change: SignInChange) => void): OAuthClientProvider | undefined {
	const client = stored?.client as OAuthClientInformationMixed | undefined;
	const registered = client && 'redirect_uris' in client && Array.isArray(client.redirect_uris) ? client.redirect_uris : [];
	const redirectUrl = typeof registered[0] === 'string' ? registered[0] : '';
	if (!stored?.tokens || !client || !redirectUrl) return undefined;
	let tokens: OAuthTokens | undefined = stored.tokens as unknown as OAuthTokens;
	// Over comlink the page answers later, or never once it is gone: nothing here waits for it.
	const tell = (change: SignInChange) => void Promise.resolve().then(() => onChange(change)).catch(() => {});
	const end = () => {
		if (tokens) tell({ type: 'ended', error: SIGN_IN_ENDED });
		tokens = undefined;
		return new SignInNeeded();
	};
	return {
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
