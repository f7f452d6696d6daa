// Signing in to a tool server that asks for it: OAuth 2.1, an authorization code with PKCE, the
// app registered dynamically, all through the SDK's client auth. The server's sign-in page runs
// in a window the user's click opened; it comes back to the app's callback page, whose message
// gives the code that auth() trades for tokens. Loaded only when the user presses Sign in.
import { auth } from '@modelcontextprotocol/sdk/client/auth.js';
import { limitedFetch } from './limited-fetch';
import { boundedText } from './plain-text';
import { SignInError, waitForCallback } from './sign-in-callback';
import { CALLBACK_PATH } from './oauth-client';
import { createSignInFlow, type SignInStore, type SignInWindow } from './sign-in-provider';

/**
 * Signs in to the server at `serverUrl` in `popup`, the window the user's click opened (null:
 * a pop-up blocker refused it); resolves once the tokens are stored, or rejects saying why not.
 * The window is closed either way.
 */
export async function signIn(popup: Window | null, serverUrl: string | undefined, store: SignInStore): Promise<void> {
	if (!popup) throw new SignInError('The sign-in window was blocked: allow pop-ups for this page, then press Sign in again.');
	try {
		if (!serverUrl) throw new SignInError('This tool server was removed.');
		await runSignIn({ serverUrl, redirectUrl: new URL(CALLBACK_PATH, location.origin).href, popup, target: window, store });
	} finally {
		popup.close();
	}
}

export interface SignInOptions {
	serverUrl: string;
	/** The app's callback page (CALLBACK_PATH on the app's origin). */
	redirectUrl: string;
	popup: SignInWindow;
	/** The app's window, where the callback's message arrives. */
	target: Pick<Window, 'addEventListener' | 'removeEventListener'>;
	store: SignInStore;
	timeoutMs?: number;
}

/** The sign-in itself: auth() until it sends the user to the server, the code back, auth() again for the tokens. */
export async function runSignIn({ serverUrl, redirectUrl, popup, target, store, timeoutMs }: SignInOptions): Promise<void> {
	const flow = createSignInFlow(redirectUrl, popup, store);
	// Listening before the window leaves for the server: its answer cannot be missed.
	const callback = waitForCallback({ target, popup, origin: new URL(redirectUrl).origin, state: flow.state, timeoutMs });
	const fetchFn = limitedFetch((input, init) => fetch(input, init));
	try {
		if ((await trying(auth(flow.provider, { serverUrl, fetchFn }))) === 'AUTHORIZED') return;
		const authorizationCode = await callback.code;
		if ((await trying(auth(flow.provider, { serverUrl, authorizationCode, fetchFn }))) !== 'AUTHORIZED') throw new SignInError('The server did not finish the sign-in.');
	} finally {
		callback.stop();
	}
}

/** The SDK's failure, said as the sign-in's. */
async function trying<T>(step: Promise<T>): Promise<T> {
	try {
		return await step;
	} catch (error) {
		if (error instanceof SignInError) throw error;
		// The SDK's words may carry the server's (an error description): plain text, bounded.
		throw new SignInError(`Signing in failed: ${boundedText(error instanceof Error ? error.message : String(error), 300)}`, { cause: error });
	}
}
