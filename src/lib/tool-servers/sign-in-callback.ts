// Waiting for a sign-in to come back: the callback page (static/oauth-callback.js), loaded in
// the sign-in window on the app's origin, posts { code, state, iss } (or the server's error) on
// the app's BroadcastChannel, which only pages of the app's origin can reach. Only an answer
// with this sign-in's state is taken, and only the first; the callback page is told it was
// taken, and closes. A sign-in that never ends stops the wait with a plain reason.
import { boundedText } from './plain-text';

/** How long a sign-in may take, the user's typing included. */
export const SIGN_IN_TIMEOUT_MS = 5 * 60_000;
/** Characters of an authorization code taken (codes are short; this only bounds a bad one). */
const MAX_CODE_CHARS = 4_096;
/** Characters of an issuer taken: a longer one is not any server's, and is refused as such. */
const MAX_ISS_CHARS = 2_048;

/** Why a sign-in did not finish, said for the user. */
export class SignInError extends Error {
	constructor(message: string, options?: ErrorOptions) {
		super(message, options);
		this.name = 'SignInError';
	}
}

/** What a sign-in brought back: the code, and the authorization server it named itself as (RFC 9207), if it did. */
export interface SignInAnswer {
	code: string;
	iss?: string;
}

export interface CallbackWait {
	/** The answer, or a rejection saying why there is none. */
	answer: Promise<SignInAnswer>;
	/** Stops waiting (the sign-in ended another way). */
	stop(): void;
}

/** The app's end of its BroadcastChannel. */
export type SignInChannel = Pick<BroadcastChannel, 'addEventListener' | 'removeEventListener' | 'postMessage'>;

export interface CallbackOptions {
	channel: SignInChannel;
	state: string;
	timeoutMs?: number;
}

export function waitForCallback({ channel, state, timeoutMs = SIGN_IN_TIMEOUT_MS }: CallbackOptions): CallbackWait {
	let stop = () => {};
	const answer = new Promise<SignInAnswer>((resolve, reject) => {
		const onMessage = (event: Event) => {
			const data: unknown = (event as MessageEvent).data;
			if (!data || typeof data !== 'object' || 'type' in data || (data as { state?: unknown }).state !== state) return;
			const { code, iss, error, error_description } = data as Record<string, unknown>;
			// The callback page closes once it hears its answer was taken.
			channel.postMessage({ type: 'taken', state });
			if (typeof error === 'string' && error) finish(() => reject(new SignInError(refusal(error, error_description))));
			else if (typeof code === 'string' && code && code.length <= MAX_CODE_CHARS) finish(() => resolve(typeof iss === 'string' ? { code, iss: iss.slice(0, MAX_ISS_CHARS) } : { code }));
			else finish(() => reject(new SignInError('The sign-in came back without a code. Press Sign in to try again.')));
		};
		const minutes = Math.max(1, Math.round(timeoutMs / 60_000));
		const timer = setTimeout(
			() => finish(() => reject(new SignInError(`Signing in took longer than ${minutes} minute${minutes === 1 ? '' : 's'} and was stopped. Press Sign in to try again.`))),
			timeoutMs
		);
		const finish = (settle: () => void) => {
			clearTimeout(timer);
			channel.removeEventListener('message', onMessage);
			settle();
		};
		stop = () => finish(() => reject(new SignInError('Signing in was stopped.')));
		channel.addEventListener('message', onMessage);
	});
	// Whoever stops the wait has its own reason to give; this one is then not news.
	answer.catch(() => {});
	return { answer, stop: () => stop() };
}

/** The server's refusal (an OAuth error code and description), as plain text. */
function refusal(error: string, description: unknown): string {
	const detail = typeof description === 'string' && description ? `: ${boundedText(description, 300)}` : '';
	return `The server refused the sign-in (${boundedText(error, 100)}${detail}).`;
}
