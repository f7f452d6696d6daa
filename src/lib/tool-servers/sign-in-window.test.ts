// The sign-in window has no opener: it says on the app's channel that it opened, and is sent to
// the server's sign-in page once the app has it; a window that never says so was blocked.
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { followSignInWindow } from './sign-in-window';
import { fakeChannel } from './test-channel';

const SIGN_IN_PAGE = new URL('https://auth.example/authorize?state=s');

describe('followSignInWindow', () => {
	beforeEach(() => vi.useFakeTimers());
	afterEach(() => vi.useRealTimers());

	it('answers its own window once it opened: wait, then the sign-in page', async () => {
		const { channel, posted, deliver } = fakeChannel();
		const popup = followSignInWindow(channel, 'w1', 6_000);
		deliver({ type: 'opened', window: 'another-window' });
		expect(posted).toEqual([]);
		deliver({ type: 'opened', window: 'w1' });
		await expect(popup.opened).resolves.toBeUndefined();
		expect(posted).toEqual([{ type: 'wait', window: 'w1' }]);
		popup.go(SIGN_IN_PAGE);
		expect(posted.at(-1)).toEqual({ type: 'go', window: 'w1', url: SIGN_IN_PAGE.href });
	});

	it('sends a window that opens late to the sign-in page it already has', async () => {
		const { channel, posted, deliver } = fakeChannel();
		const popup = followSignInWindow(channel, 'w1', 6_000);
		popup.go(SIGN_IN_PAGE);
		expect(posted).toEqual([]);
		await vi.advanceTimersByTimeAsync(5_000);
		deliver({ type: 'opened', window: 'w1' });
		await expect(popup.opened).resolves.toBeUndefined();
		expect(posted).toEqual([{ type: 'go', window: 'w1', url: SIGN_IN_PAGE.href }]);
	});

	it('says so when no window opened in time', async () => {
		const { channel } = fakeChannel();
		const popup = followSignInWindow(channel, 'w1', 6_000);
		await vi.advanceTimersByTimeAsync(6_000);
		await expect(popup.opened).rejects.toThrow('No sign-in window opened: if your browser blocked it, allow pop-ups for this page, then press Sign in again.');
	});

	it('once stopped, tells the window, and sends it nowhere', async () => {
		const { channel, posted, deliver } = fakeChannel();
		const popup = followSignInWindow(channel, 'w1', 6_000);
		popup.stop();
		expect(posted).toEqual([{ type: 'stop', window: 'w1' }]);
		deliver({ type: 'opened', window: 'w1' });
		popup.go(SIGN_IN_PAGE);
		expect(posted).toEqual([{ type: 'stop', window: 'w1' }]);
	});
});
