// The page's side of one sign-in to a tool server, as the SDK's OAuthClientProvider: the app's
// registration is kept with the server's settings, the PKCE verifier and the state only in
// memory for this sign-in, and the server's sign-in page is opened in the window the user's
// click opened. The tokens it gets are handed over to be stored, and never read back here: a
// sign-in always asks the user, where the worker refreshes.
import type { OAuthClientProvider } from '@modelcontextprotocol/sdk/client/auth.js';
import type { OAuthClientInformationMixed } from '@modelcontextprotocol/sdk/shared/auth.js';
import { clientMetadata, randomState } from './oauth-client';
import { SignInError } from './sign-in-callback';
import type { StoredOAuth } from './types';

export interface SignInStore {
	/** The app's registration with this server's authorization server, if it has one. */
	client(): Record<string, unknown> | undefined;
	/** Keeps what is given of the server's sign-in (`client: undefined` forgets the registration, which the server refused). */
	save(oauth: StoredOAuth): Promise<unknown>;
}

/** The sign-in window, as much of it as the flow uses. */
export interface SignInWindow {
	readonly closed: boolean;
	location: { href: string };
}

export interface SignInFlow {
	provider: OAuthClientProvider;
	/** This sign-in's OAuth state: the callback must bring it back. */
	state: string;
}

export function createSignInFlow(redirectUrl: string, popup: SignInWindow, store: SignInStore): SignInFlow {
	const state = randomState();
	let verifier: string | undefined;
	let forgotten = false;
	const provider: OAuthClientProvider = {
		redirectUrl,
		clientMetadata: clientMetadata(redirectUrl),
		state: () => state,
		clientInformation: () => (forgotten ? undefined : (store.client() as OAuthClientInformationMixed | undefined)),
		async saveClientInformation(client) {
			forgotten = false;
			await store.save({ client: { ...client } });
		},
		tokens: () => undefined,
		async saveTokens(tokens) {
			await store.save({ tokens: { ...tokens } });
		},
		redirectToAuthorization(url) {
			// The window has this app's origin until it leaves it: a javascript: or data: address
			// from a hostile server would run there.
			if (url.protocol !== 'https:' && url.protocol !== 'http:') throw new SignInError('The server gave a sign-in address that is not a web page.');
			if (popup.closed) throw new SignInError('The sign-in window was closed before signing in finished. Press Sign in to try again.');
			popup.location.href = url.href;
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
	return { provider, state };
}
