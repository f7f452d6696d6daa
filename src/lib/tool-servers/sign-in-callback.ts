// Waiting for a sign-in to come back: the callback page (static/oauth-callback.js), loaded in
// the sign-in window on the app's origin, posts { code, state, error } to the app. Only a
// message from that window, of the app's origin, with this sign-in's state is taken; the user
// closing the window, or a sign-in that never ends, stops the wait with a plain reason.
import { boundedText } from './plain-text';

/** How long a sign-in may take, the user's typing included. */
export const SIGN_IN_TIMEOUT_MS = 5 * 60_000;
/** How often the window is looked at, to see whether the user closed it. */
const POLL_MS = 400;
/**
 * How long a closed window's message may still be on its way: the callback posts, then
 * closes, and the page may see the window closed before it handles the message.
 */
const CLOSED_GRACE_MS = 1_000;
/** Characters of an authorization code taken (codes are short; this only bounds a bad one). */
const MAX_CODE_CHARS = 4_096;

/** Why a sign-in did not finish, said for the user. */
export class SignInError extends Error {
	constructor(message: string, options?: ErrorOptions) {
		super(message, options);
		this.name = 'SignInError';
	}
}

export interface CallbackWait {
	/** The authorization code, or a rejection saying why there is none. */
	code: Promise<string>;
	/** Stops waiting (the sign-in ended another way). */
	stop(): void;
}

export interface CallbackOptions {
	/** Where messages arrive: the app's window. */
	target: Pick<Window, 'addEventListener' | 'removeEventListener'>;
	/** The sign-in window. */
	popup: { readonly closed: boolean };
	/** The app's origin, the callback page's too. */
	origin: string;
	state: string;
	timeoutMs?: number;
	pollMs?: number;
}

export function waitForCallback({ target, popup, origin, state, timeoutMs = SIGN_IN_TIMEOUT_MS, pollMs = POLL_MS }: CallbackOptions): CallbackWait {
	let stop = () => {};
	const code = new Promise<string>((resolve, reject) => {
		let closedAt = 0;
		const onMessage = (event: Event) => {
			const message = event as MessageEvent;
			if (message.source !== popup || message.origin !== origin) return;
			const data: unknown = message.data;
			if (!data || typeof data !== 'object' || (data as { state?: unknown }).state !== state) return;
			const { code, error, error_description } = data as Record<string, unknown>;
			if (typeof error === 'string' && error) finish(() => reject(new SignInError(refusal(error, error_description))));
			else if (typeof code === 'string' && code && code.length <= MAX_CODE_CHARS) finish(() => resolve(code));
			else finish(() => reject(new SignInError('The sign-in came back without a code. Press Sign in to try again.')));
		};
		const poll = setInterval(() => {
			if (!popup.closed) return;
			closedAt ||= Date.now();
			if (Date.now() - closedAt >= CLOSED_GRACE_MS) finish(() => reject(new SignInError('The sign-in window was closed before signing in finished. Press Sign in to try again.')));
		}, pollMs);
		const minutes = Math.max(1, Math.round(timeoutMs / 60_000));
		const timer = setTimeout(
			() => finish(() => reject(new SignInError(`Signing in took longer than ${minutes} minute${minutes === 1 ? '' : 's'} and was stopped. Press Sign in to try again.`))),
			timeoutMs
		);
		const finish = (settle: () => void) => {
			clearInterval(poll);
			clearTimeout(timer);
			target.removeEventListener('message', onMessage);
			settle();
		};
		stop = () => finish(() => reject(new SignInError('Signing in was stopped.')));
		target.addEventListener('message', onMessage);
	});
	// Whoever stops the wait has its own reason to give; this one is then not news.
	code.catch(() => {});
	return { code, stop: () => stop() };
}

/** The server's refusal (an OAuth error code and description), as plain text. */
function refusal(error: string, description: unknown): string {
	const detail = typeof description === 'string' && description ? `: ${boundedText(description, 300)}` : '';
	return `The server refused the sign-in (${boundedText(error, 100)}${detail}).`;
}
