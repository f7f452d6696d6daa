// Waiting for a sign-in to come back: only the sign-in window's message, of the app's origin,
// with the sign-in's state counts; the server's refusal, a closed window and a sign-in that
// never ends each stop the wait with a reason the user can act on.
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { SignInError, waitForCallback } from './sign-in-callback';

const ORIGIN = 'http://127.0.0.1:4173';
const STATE = 'state-of-this-sign-in';

function setup() {
	const target = new EventTarget();
	const popup = { closed: false };
	const wait = waitForCallback({ target, popup, origin: ORIGIN, state: STATE, timeoutMs: 60_000, pollMs: 100 });
	const post = (data: unknown, { source = popup as unknown, origin = ORIGIN } = {}) => {
		const event = new Event('message');
		Object.defineProperties(event, { data: { value: data }, source: { value: source }, origin: { value: origin } });
		target.dispatchEvent(event);
	};
	return { popup, wait, post };
}

/** Whether the promise has settled, after pending callbacks ran. */
async function settled(promise: Promise<unknown>): Promise<boolean> {
	let done = false;
	promise.then(
		() => (done = true),
		() => (done = true)
	);
	await vi.advanceTimersByTimeAsync(0);
	return done;
}

describe('waitForCallback', () => {
	beforeEach(() => vi.useFakeTimers());
	afterEach(() => vi.useRealTimers());

	it('takes the code from the sign-in window’s message with this sign-in’s state', async () => {
		const { wait, post } = setup();
		post({ code: 'the-code', state: STATE, error: null });
		await expect(wait.code).resolves.toBe('the-code');
	});

	it('ignores a message from another window, another origin, or with another state', async () => {
		const { wait, post } = setup();
		post({ code: 'forged', state: STATE }, { source: {} });
		post({ code: 'forged', state: STATE }, { origin: 'https://evil.example' });
		post({ code: 'forged', state: 'guessed' });
		post('not an object');
		expect(await settled(wait.code)).toBe(false);
		post({ code: 'the-code', state: STATE });
		await expect(wait.code).resolves.toBe('the-code');
	});

	it('says the server refused, with its reason as plain text', async () => {
		const { wait, post } = setup();
		post({ code: null, state: STATE, error: 'access_denied', error_description: 'The user said no.\u202e' });
		await expect(wait.code).rejects.toThrow(new SignInError('The server refused the sign-in (access_denied: The user said no.).'));
	});

	it('says the window was closed once it stays closed, yet still takes a message that was on its way', async () => {
		const late = setup();
		late.popup.closed = true;
		await vi.advanceTimersByTimeAsync(300);
		late.post({ code: 'just-in-time', state: STATE });
		await expect(late.wait.code).resolves.toBe('just-in-time');

		const { popup, wait } = setup();
		popup.closed = true;
		await vi.advanceTimersByTimeAsync(1_200);
		await expect(wait.code).rejects.toThrow('The sign-in window was closed before signing in finished. Press Sign in to try again.');
	});

	it('gives up after its time limit', async () => {
		const { wait } = setup();
		await vi.advanceTimersByTimeAsync(59_000);
		expect(await settled(wait.code)).toBe(false);
		await vi.advanceTimersByTimeAsync(1_000);
		await expect(wait.code).rejects.toThrow('Signing in took longer than 1 minute and was stopped.');
	});

	it('stops listening once stopped', async () => {
		const { wait, post } = setup();
		wait.stop();
		post({ code: 'too-late', state: STATE });
		await expect(wait.code).rejects.toThrow('Signing in was stopped.');
	});
});
