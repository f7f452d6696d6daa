// Waiting for a sign-in to come back on the app's channel: only an answer with the sign-in's
// state counts, and only the first; the callback page is told it was taken; the server's
// refusal and a sign-in that never ends each stop the wait with a reason the user can act on.
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { SignInError, waitForCallback } from './sign-in-callback';
import { fakeChannel } from './test-channel';

const STATE = 'state-of-this-sign-in';

function setup() {
	const { channel, posted, deliver } = fakeChannel();
	const wait = waitForCallback({ channel, state: STATE, timeoutMs: 60_000 });
	return { wait, posted, deliver };
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

	it('takes the code, and the issuer the server named, from the answer with this sign-in’s state, and says it took it', async () => {
		const { wait, posted, deliver } = setup();
		deliver({ code: 'the-code', state: STATE, iss: 'https://auth.example/' });
		await expect(wait.answer).resolves.toEqual({ code: 'the-code', iss: 'https://auth.example/' });
		expect(posted).toEqual([{ type: 'taken', state: STATE }]);

		const without = setup();
		without.deliver({ code: 'the-code', state: STATE });
		await expect(without.wait.answer).resolves.toEqual({ code: 'the-code' });
	});

	it('ignores an answer with another state, the sign-in window’s own messages, and anything not an answer', async () => {
		const { wait, posted, deliver } = setup();
		deliver({ code: 'forged', state: 'guessed' });
		deliver({ code: 'forged' });
		deliver({ type: 'opened', window: 'w', code: 'forged', state: STATE });
		deliver('not an object');
		deliver(null);
		expect(await settled(wait.answer)).toBe(false);
		expect(posted).toEqual([]);
		deliver({ code: 'the-code', state: STATE });
		await expect(wait.answer).resolves.toEqual({ code: 'the-code' });
	});

	it('takes an answer once: a second one with the same state is not heard', async () => {
		const { wait, posted, deliver } = setup();
		deliver({ code: 'first', state: STATE });
		deliver({ code: 'replayed', state: STATE });
		await expect(wait.answer).resolves.toEqual({ code: 'first' });
		expect(posted).toEqual([{ type: 'taken', state: STATE }]);
	});

	it('says the server refused, with its reason as plain text', async () => {
		const { wait, deliver } = setup();
		deliver({ state: STATE, error: 'access_denied', error_description: 'The user said no.\u202e' });
		await expect(wait.answer).rejects.toThrow(new SignInError('The server refused the sign-in (access_denied: The user said no.).'));
	});

	it('says an answer without a usable code came back', async () => {
		const { wait, deliver } = setup();
		deliver({ state: STATE, code: 'x'.repeat(5_000) });
		await expect(wait.answer).rejects.toThrow('The sign-in came back without a code. Press Sign in to try again.');
	});

	it('gives up after its time limit', async () => {
		const { wait } = setup();
		await vi.advanceTimersByTimeAsync(59_000);
		expect(await settled(wait.answer)).toBe(false);
		await vi.advanceTimersByTimeAsync(1_000);
		await expect(wait.answer).rejects.toThrow('Signing in took longer than 1 minute and was stopped.');
	});

	it('stops listening once stopped', async () => {
		const { wait, posted, deliver } = setup();
		wait.stop();
		deliver({ code: 'too-late', state: STATE });
		await expect(wait.answer).rejects.toThrow('Signing in was stopped.');
		expect(posted).toEqual([]);
	});
});
