// Signing in to a tool server that asks for it: OAuth 2.1, an authorization code with PKCE, the
// app registered dynamically, all through the SDK's client auth. The server's sign-in page runs
// in a window the user's click opened without an opener (sign-in-page.ts); it comes back to the
// app's callback page, which hands the code back on the app's channel, and auth() trades it for
// tokens with the authorization server the sign-in went to, and no other. Every request goes
// over https, or plain http to this computer only. Loaded only when the user presses Sign in.
import { auth } from '@modelcontextprotocol/sdk/client/auth.js';
import { checkAnswerIssuer } from './issuer-pin';
import { limitedFetch } from './limited-fetch';
import { CALLBACK_PATH } from './oauth-client';
import { boundedText } from './plain-text';
import { requireSecureUrl, secureFetch } from './secure-url';
import { SignInError, waitForCallback, type SignInChannel } from './sign-in-callback';
import { SIGN_IN_CHANNEL } from './sign-in-page';
import { createSignInFlow, type SignInStore } from './sign-in-provider';
import { followSignInWindow, type SignInWindow } from './sign-in-window';

/**
 * Signs in to the server at `serverUrl` in the window opened as `windowId`; resolves once the
 * tokens are stored, or rejects saying why not. `signal` stops it (the user pressed Sign in
 * again): its answer is then no longer taken.
 */
export async function signIn(windowId: string, serverUrl: string | undefined, store: SignInStore, signal?: AbortSignal): Promise<void> {
	const channel = new BroadcastChannel(SIGN_IN_CHANNEL);
	const popup = followSignInWindow(channel, windowId);
	try {
		if (!serverUrl) throw new SignInError('This tool server was removed.');
		await runSignIn({ serverUrl, redirectUrl: new URL(CALLBACK_PATH, location.origin).href, popup, channel, store, signal });
	} finally {
		popup.stop();
		channel.close();
	}
}

export interface SignInOptions {
	serverUrl: string;
	/** The app's callback page (CALLBACK_PATH on the app's origin). */
	redirectUrl: string;
	popup: SignInWindow;
	/** Where the callback page's answer arrives. */
	channel: SignInChannel;
	store: SignInStore;
	signal?: AbortSignal;
	timeoutMs?: number;
	fetchImpl?: typeof fetch;
}

/** The sign-in itself: auth() until it sends the user to the server, the code back, auth() again for the tokens. */
export async function runSignIn({ serverUrl, redirectUrl, popup, channel, store, signal, timeoutMs, fetchImpl = (input, init) => fetch(input, init) }: SignInOptions): Promise<void> {
	const flow = createSignInFlow(redirectUrl, popup, store);
	// Listening before the window leaves for the server: its answer cannot be missed.
	const callback = waitForCallback({ channel, state: flow.state, timeoutMs });
	const stop = () => {
		callback.stop();
		popup.stop();
	};
	signal?.addEventListener('abort', stop, { once: true });
	// A window that never opened ends the sign-in; one that did has nothing more to say.
	const blocked = popup.opened.then(() => new Promise<never>(() => {}));
	blocked.catch(() => {});
	const fetchFn = secureFetch(limitedFetch(fetchImpl));
	try {
		if (signal?.aborted) throw new SignInError('Signing in was stopped.');
		readServerAddress(serverUrl);
		if ((await Promise.race([trying(auth(flow.provider, { serverUrl, fetchFn })), blocked])) === 'AUTHORIZED') return;
		const answer = await Promise.race([callback.answer, blocked]);
		const pin = flow.pin();
		if (!pin) throw new SignInError('The sign-in came back before it was sent anywhere.');
		checkAnswerIssuer(pin, answer.iss);
		if ((await trying(auth(flow.provider, { serverUrl, authorizationCode: answer.code, fetchFn }))) !== 'AUTHORIZED') throw new SignInError('The server did not finish the sign-in.');
	} finally {
		signal?.removeEventListener('abort', stop);
		callback.stop();
	}
}

/** The server's stored address, held to https (or plain http to this computer) before anything is sent. */
function readServerAddress(serverUrl: string): void {
	try {
		requireSecureUrl(serverUrl, 'The tool server’s address');
	} catch (error) {
		throw new SignInError(error instanceof Error ? error.message : String(error));
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
