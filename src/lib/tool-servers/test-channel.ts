// A BroadcastChannel's app end for the sign-in tests: what the app posts is kept, and a test
// delivers what another page of the origin would have posted. Test-only.
import type { SignInChannel } from './sign-in-callback';

export interface FakeChannel {
	channel: SignInChannel;
	/** What the app posted, in order. */
	posted: unknown[];
	/** Delivers `data` as a message from another page of the app's origin. */
	deliver(data: unknown): void;
}

export function fakeChannel(): FakeChannel {
	const target = new EventTarget();
	const posted: unknown[] = [];
	return {
		channel: {
			addEventListener: target.addEventListener.bind(target) as SignInChannel['addEventListener'],
			removeEventListener: target.removeEventListener.bind(target) as SignInChannel['removeEventListener'],
			postMessage: (message: unknown) => void posted.push(message)
		},
		posted,
		deliver(data) {
			const event = new Event('message');
			Object.defineProperty(event, 'data', { value: data });
			target.dispatchEvent(event);
		}
	};
}
