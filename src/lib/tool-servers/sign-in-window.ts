// The app's side of the sign-in window (static/sign-in.js), which has no opener: the window says
// on the channel that it opened (a window a pop-up blocker stopped never does), and is answered
// with the server's sign-in page to go to once the app has it, or told that the sign-in stopped.
import { SignInError, type SignInChannel } from './sign-in-callback';

/** How long the window may take to say it opened before the app says it was blocked. */
export const OPEN_TIMEOUT_MS = 6_000;

export interface SignInWindow {
	/** Resolves once the window said it opened; rejects, saying so, if it did not in time. */
	opened: Promise<void>;
	/** Sends the window to the server's sign-in page, once it opened. */
	go(url: URL): void;
	/** Ends this sign-in's part in the window: it closes if it still shows the app's page, and is sent nowhere after. */
	stop(): void;
}

export function followSignInWindow(channel: SignInChannel, windowId: string, timeoutMs = OPEN_TIMEOUT_MS): SignInWindow {
	let url: string | undefined;
	let stopped = false;
	let isOpen = false;
	let settle: { resolve(): void; reject(error: Error): void };
	const opened = new Promise<void>((resolve, reject) => (settle = { resolve, reject }));
	// Raced with each step of the sign-in, never left unheard.
	opened.catch(() => {});
	const answer = () => channel.postMessage(url ? { type: 'go', window: windowId, url } : { type: 'wait', window: windowId });
	const onMessage = (event: Event) => {
		const data: unknown = (event as MessageEvent).data;
		if (stopped || !data || typeof data !== 'object') return;
		const { type, window } = data as Record<string, unknown>;
		if (type !== 'opened' || window !== windowId) return;
		isOpen = true;
		clearTimeout(timer);
		settle.resolve();
		answer();
	};
	const timer = setTimeout(
		() => settle.reject(new SignInError('No sign-in window opened: if your browser blocked it, allow pop-ups for this page, then press Sign in again.')),
		timeoutMs
	);
	channel.addEventListener('message', onMessage);
	return {
		opened,
		go(next) {
			if (stopped) return;
			url = next.href;
			if (isOpen) answer();
		},
		stop() {
			if (stopped) return;
			stopped = true;
			clearTimeout(timer);
			channel.removeEventListener('message', onMessage);
			channel.postMessage({ type: 'stop', window: windowId });
		}
	};
}
