// What the page takes of a connection's sign-in: refreshed tokens and the sign-in's end, only
// while the stored tokens are those the connection had (not after a sign-out, a new sign-in, or
// a refresh in another tab).
import { describe, expect, it } from 'vitest';
import { followSignIn, type SignInFollower } from './tool-server-client';

function setup(stored: unknown) {
	const kept: unknown[] = [];
	const ended: string[] = [];
	const follower: SignInFollower = {
		stored: () => stored,
		refreshed: (tokens) => {
			kept.push(tokens);
			stored = { ...tokens };
		},
		ended: (error) => void ended.push(error)
	};
	return { kept, ended, follower, set: (next: unknown) => (stored = next) };
}

describe('followSignIn', () => {
	it('keeps each refresh in turn, and hears the end', () => {
		const { kept, ended, follower } = setup({ access_token: 'a1' });
		const hear = followSignIn({ access_token: 'a1' }, follower);
		hear({ type: 'tokens', tokens: { access_token: 'a2' } });
		hear({ type: 'tokens', tokens: { access_token: 'a3' } });
		hear({ type: 'ended', error: 'sign in again' });
		expect(kept).toEqual([{ access_token: 'a2' }, { access_token: 'a3' }]);
		expect(ended).toEqual(['sign in again']);
	});

	it('keeps a refresh that comes before the one before it is stored', () => {
		const kept: unknown[] = [];
		let stored: unknown = { access_token: 'a1' };
		const hear = followSignIn(stored, {
			stored: () => stored,
			// Stored later, as a write to the database is.
			refreshed: (tokens) => void kept.push(tokens),
			ended: () => {}
		});
		hear({ type: 'tokens', tokens: { access_token: 'a2' } });
		hear({ type: 'tokens', tokens: { access_token: 'a3' } });
		stored = { access_token: 'a2' };
		hear({ type: 'tokens', tokens: { access_token: 'a4' } });
		expect(kept).toEqual([{ access_token: 'a2' }, { access_token: 'a3' }, { access_token: 'a4' }]);
	});

	it('takes nothing once the stored tokens are not the connection’s', () => {
		const { kept, ended, follower, set } = setup({ access_token: 'a1' });
		const hear = followSignIn({ access_token: 'a1' }, follower);
		set(undefined);
		hear({ type: 'tokens', tokens: { access_token: 'a2' } });
		set({ access_token: 'signed-in-again' });
		hear({ type: 'ended', error: 'sign in again' });
		expect(kept).toEqual([]);
		expect(ended).toEqual([]);
	});
});
