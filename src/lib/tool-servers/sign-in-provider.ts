// The page's side of one sign-in to a tool server, as the SDK's OAuthClientProvider: the app's
// registration is kept with the server's settings; the PKCE verifier, the state and what
// discovery found only in memory for this sign-in; and the server's sign-in page is opened in
// the sign-in window. The authorization server found is pinned (issuer-pin.ts): the code is
// traded where the sign-in went, and the pin is stored with the tokens. The tokens are handed
// over to be stored, and never read back here: a sign-in always asks the user, where the
// worker refreshes.
import type { OAuthClientProvider, OAuthDiscoveryState } from '@modelcontextprotocol/sdk/client/auth.js';
import type { OAuthClientInformationMixed } from '@modelcontextprotocol/sdk/shared/auth.js';
import { otherIssuer, pinIssuer, type IssuerPin } from './issuer-pin';
import { clientMetadata, randomState } from './oauth-client';
import { isSecureUrl } from './secure-url';
import { SignInError } from './sign-in-callback';
import type { StoredOAuth } from './types';

export interface SignInStore {
	/** The app's registration with this server's authorization server, if it has one. */
	client(): Record<string, unknown> | undefined;
	/** Keeps what is given of the server's sign-in (`client: undefined` forgets the registration, which the server refused). */
	save(oauth: StoredOAuth): Promise<unknown>;
}

/** The sign-in window, as much of it as the flow uses: it can be sent to the server's sign-in page. */
export interface SignInTarget {
	go(url: URL): void;
}

export interface SignInFlow {
	provider: OAuthClientProvider;
	/** This sign-in's OAuth state: the callback must bring it back. */
	state: string;
	/** The authorization server this sign-in went to, once discovery found it. */
	pin(): IssuerPin | undefined;
}

export function createSignInFlow(redirectUrl: string, popup: SignInTarget, store: SignInStore): SignInFlow {
	const state = randomState();
	let verifier: string | undefined;
	let forgotten = false;
	let discovery: OAuthDiscoveryState | undefined;
	let pin: IssuerPin | undefined;
	const provider: OAuthClientProvider = {
		redirectUrl,
		clientMetadata: clientMetadata(redirectUrl),
		state: () => state,
		clientInformation: () => (forgotten ? undefined : (store.client() as OAuthClientInformationMixed | undefined)),
		async saveClientInformation(client) {
			forgotten = false;
			await store.save({ client: { ...client } });
		},
		// Kept for this sign-in only: the code is traded with the server the user was sent to.
		saveDiscoveryState(found) {
			if (!pin) {
				pin = pinIssuer(found);
				discovery = found;
			} else if (otherIssuer(pin, found)) {
				throw new SignInError('The server named another authorization server while you signed in, so the sign-in was stopped. Press Sign in to try again.');
			}
		},
		discoveryState: () => discovery,
		tokens: () => undefined,
		async saveTokens(tokens) {
			if (!pin) throw new SignInError('The server gave tokens before saying where it signs in.');
			await store.save({ tokens: { ...tokens }, pin });
		},
		redirectToAuthorization(url) {
			// The window has this app's origin until it leaves it: a javascript: or data: address
			// from a hostile server would run there.
			if (url.protocol !== 'https:' && url.protocol !== 'http:') throw new SignInError('The server gave a sign-in address that is not a web page.');
			if (!isSecureUrl(url)) throw new SignInError(`The server gave a sign-in page over plain http (${url.origin}), which is refused: only https is used, or plain http to this computer.`);
			popup.go(url);
		},
		saveCodeVerifier(codeVerifier) {
			verifier = codeVerifier;
		},
		codeVerifier() {
			if (!verifier) throw new SignInError('This sign-in was not started here.');
			return verifier;
		},
		async invalidateCredentials(scope) {
			if (scope !== 'all' && scope !== 'client') return;
			forgotten = true;
			await store.save({ client: undefined });
		}
	};
	return { provider, state, pin: () => pin };
}
