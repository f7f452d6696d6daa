import { describe, expect, it, vi } from 'vitest';
import { statusError } from '../../sync/sync-error';
import { needsPassphrase, wrongPassphrase } from '../../sync/sealing-errors';
import { SyncState } from './sync.svelte';
import { browser, FakeLocks } from './test-sync-browser';

const SERVER = 'http://127.0.0.1:5984/userdb-alice';

describe('SyncState', () => {
	it('Start sync checks the address, runs the loop here with the password, and stores the server and username but never the password', async () => {
		const { tab } = browser();
		const a = tab();
		await a.state.begin({ server: ` ${SERVER}/ `, username: 'alice', password: 'hunter2-secret' });
		await vi.waitFor(() => expect(a.worker()?.runs).toHaveLength(1));
		expect(a.state.role).toBe('owner');
		expect(a.worker().runs[0]).toMatchObject({ profile: 'default', url: SERVER, credentials: { name: 'alice', password: 'hunter2-secret' }, online: true, visible: true });
		expect(a.saved).toEqual([{ 'sync.enabled': true, 'sync.server': SERVER, 'sync.username': 'alice' }]);
		expect(a.state.text).toBe('Starting sync…');

		a.worker().emit({ state: 'sending', done: 120, total: 2000 });
		expect(a.state.text).toBe('Sending 120 of 2,000');
		expect(a.state.progress).toEqual({ done: 120, total: 2000 });
		a.worker().emit({ state: 'up-to-date', at: 1_000_000, skipped: 0 });
		expect(a.state.text).toBe('Up to date');
		expect(a.state.lastSyncAt).toBe(1_000_000);
		// After the first sync, no progress bar for what is sent later.
		a.worker().emit({ state: 'sending', done: 1, total: 1 });
		expect(a.state.progress).toBeNull();
		expect(a.saved).toContainEqual({ 'sync.last_at': 1_000_000 });
		expect(JSON.stringify(a.saved)).not.toContain('hunter2-secret');
	});

	it('refuses an address that is not a database URL, and starts nothing', async () => {
		const { tab } = browser();
		const a = tab();
		await expect(a.state.begin({ server: 'ftp://example.com/db', username: '', password: '' })).rejects.toThrow(/http:\/\/ or https:\/\//);
		await expect(a.state.begin({ server: SERVER, username: '', password: 'secret' })).rejects.toThrow(/username/);
		expect(a.saved).toEqual([]);
		expect(a.workers).toHaveLength(0);
		expect(a.state.text).toBe('Sync is off.');
	});

	it('Stop sync ends the run and the worker, stores sync as off, and forgets the password', async () => {
		const { tab, locks } = browser();
		const a = tab();
		await a.state.begin({ server: SERVER, username: 'alice', password: 'secret' });
		await vi.waitFor(() => expect(a.worker()?.running).toBe(true));
		await a.state.end();
		expect(a.state.role).toBe('off');
		expect(a.state.text).toBe('Sync is off.');
		expect(a.saved.at(-1)).toEqual({ 'sync.enabled': false });
		await vi.waitFor(() => expect(a.worker().closed).toBe(true));
		expect(a.worker().running).toBe(false);
		await vi.waitFor(() => expect(locks.holder).toBeNull());

		// Turned on again from the stored settings (a reload): no password is held.
		a.state.follow({ server: SERVER, username: 'alice' });
		await vi.waitFor(() => expect(a.workers).toHaveLength(2));
		await vi.waitFor(() => expect(a.worker().runs).toHaveLength(1));
		expect(a.worker().runs[0].credentials).toBeNull();
	});

	it('a run that needs a login and holds no password says to enter it and press Start sync; Start sync runs again with it', async () => {
		const { tab } = browser();
		const a = tab();
		a.state.follow({ server: SERVER, username: 'alice' });
		await vi.waitFor(() => expect(a.worker()?.runs).toHaveLength(1));
		a.worker().fail(statusError(401).reason);
		expect(a.state.text).toBe('The sync server asks for a login: enter the password for alice and press Start sync.');
		expect(a.state.stalled).toBe(true);

		await a.state.begin({ server: SERVER, username: 'alice', password: 'secret' });
		await vi.waitFor(() => expect(a.worker().runs).toHaveLength(2));
		expect(a.workers).toHaveLength(1);
		expect(a.worker().runs[1].credentials).toEqual({ name: 'alice', password: 'secret' });
		a.worker().emit({ state: 'up-to-date', at: 5, skipped: 0 });
		expect(a.state.text).toBe('Up to date');
		expect(a.state.stalled).toBe(false);
	});

	it('Create database on a database that does not exist runs sync again, with the password held, creating it first, once', async () => {
		const { tab } = browser();
		const a = tab();
		await a.state.begin({ server: SERVER, username: 'alice', password: 'secret' });
		await vi.waitFor(() => expect(a.worker()?.runs).toHaveLength(1));
		a.worker().fail(statusError(404).reason);
		expect(a.state.text).toMatch(/^This database does not exist on the sync server \(404\): press Create database/);
		expect(a.state.stalled).toBe(true);

		await a.state.createDatabase({ server: SERVER, username: 'alice', password: '' });
		await vi.waitFor(() => expect(a.worker().runs).toHaveLength(2));
		expect(a.worker().runs[0].create).toBeUndefined();
		expect(a.worker().runs[1]).toMatchObject({ create: true, url: SERVER, credentials: { name: 'alice', password: 'secret' } });
		a.worker().emit({ state: 'up-to-date', at: 9, skipped: 0 });
		expect(a.state.text).toBe('Up to date');

		// A run started later for another reason (new credentials) creates nothing.
		await a.state.begin({ server: SERVER, username: 'alice', password: 'other' });
		await vi.waitFor(() => expect(a.worker().runs).toHaveLength(3));
		expect(a.worker().runs[2].create).toBeUndefined();
	});

	it('Create database after a 404 encrypts with the Sync passphrase typed for the run that found no database', async () => {
		const { tab } = browser();
		const a = tab();
		await a.state.begin({ server: SERVER, username: '', password: '', passphrase: 'correct horse' });
		await vi.waitFor(() => expect(a.worker()?.runs).toHaveLength(1));
		a.worker().fail(statusError(404).reason);

		await a.state.createDatabase({ server: SERVER, username: '', password: '' });
		await vi.waitFor(() => expect(a.worker().runs).toHaveLength(2));
		expect(a.worker().runs[1]).toMatchObject({ create: true, passphrase: 'correct horse' });
		a.worker().emit({ state: 'up-to-date', at: 9, skipped: 0, sealed: true });

		// Once up to date, the passphrase is no longer held: a later run gets none.
		await a.state.createDatabase({ server: SERVER, username: '', password: '' });
		await vi.waitFor(() => expect(a.worker().runs).toHaveLength(3));
		expect(a.worker().runs[2]).toMatchObject({ passphrase: null });
	});

	it('Start sync hands the Sync passphrase to that run alone: never stored, not held for the next run', async () => {
		const { tab } = browser();
		const a = tab();
		await a.state.begin({ server: SERVER, username: '', password: '', passphrase: 'correct horse' });
		await vi.waitFor(() => expect(a.worker()?.runs).toHaveLength(1));
		expect(a.worker().runs[0]).toMatchObject({ passphrase: 'correct horse', newPassphrase: null });
		a.worker().fail(wrongPassphrase().reason);
		expect(a.state.text).toBe(wrongPassphrase().reason);
		expect(a.state.stalled).toBe(true);

		await a.state.begin({ server: SERVER, username: '', password: '' });
		await vi.waitFor(() => expect(a.worker().runs).toHaveLength(2));
		expect(a.worker().runs[1]).toMatchObject({ passphrase: null, newPassphrase: null });
		expect(JSON.stringify(a.saved)).not.toContain('horse');
		expect(JSON.stringify(a.state)).not.toContain('horse');
	});

	it('says when the database is encrypted, and Change passphrase runs again with the new one alone', async () => {
		const { tab } = browser();
		const a = tab();
		const b = tab();
		await a.state.begin({ server: SERVER, username: '', password: '', passphrase: 'old one' });
		await vi.waitFor(() => expect(a.worker()?.runs).toHaveLength(1));
		b.state.follow({ server: SERVER, username: '' });
		a.worker().emit({ state: 'up-to-date', at: 1, skipped: 0, sealed: true });
		expect(a.state.sealed).toBe(true);
		await vi.waitFor(() => expect(b.state.sealed).toBe(true));

		a.state.changePassphrase('new one');
		await vi.waitFor(() => expect(a.worker().runs).toHaveLength(2));
		expect(a.worker().runs[1]).toMatchObject({ passphrase: null, newPassphrase: 'new one' });
		a.worker().emit({ state: 'error', reason: needsPassphrase().reason, retryAt: null, kind: 'passphrase' });
		expect(a.state.sealed).toBe(false);
		expect(() => a.state.changePassphrase('')).toThrow(/new sync passphrase/);
	});

	it('one tab runs the loop; another shows its status and takes over, without the password, when it closes', async () => {
		const { tab } = browser();
		const a = tab();
		const b = tab();
		await a.state.begin({ server: SERVER, username: 'alice', password: 'secret' });
		await vi.waitFor(() => expect(a.worker()?.running).toBe(true));
		a.worker().emit({ state: 'receiving', done: 50, total: 400 });

		b.state.follow({ server: SERVER, username: 'alice' });
		expect(b.state.role).toBe('watching');
		// It asks the owner for its status, and hears each new one.
		await vi.waitFor(() => expect(b.state.text).toBe('Receiving 50 of 400'));
		expect(b.state.progress).toEqual({ done: 50, total: 400 });
		a.worker().emit({ state: 'up-to-date', at: 7_000, skipped: 2 });
		await vi.waitFor(() => expect(b.state.text).toBe('Up to date (2 documents refused)'));
		expect(b.state.lastSyncAt).toBe(7_000);
		expect(b.workers).toHaveLength(0);

		a.state.close();
		await vi.waitFor(() => expect(b.state.role).toBe('owner'));
		await vi.waitFor(() => expect(b.worker()?.runs).toHaveLength(1));
		expect(b.worker().runs[0]).toMatchObject({ url: SERVER, credentials: null });
		expect(a.worker().closed).toBe(true);
	});

	it('asks about many deletions in every tab until answered in one: the answer reaches the worker of the tab that runs sync', async () => {
		const { tab } = browser();
		const a = tab();
		const b = tab();
		a.state.follow({ server: SERVER, username: '' });
		await vi.waitFor(() => expect(a.worker()?.running).toBe(true));
		b.state.follow({ server: SERVER, username: '' });
		expect(a.state.deletionsAsked).toBeNull();
		a.worker().emit({ state: 'confirm-deletions', count: 12 });
		expect(a.state.deletionsAsked).toBe(12);
		expect(a.state.text).toMatch(/^12 sessions were deleted on another device or on the server\. Nothing is deleted here until you choose/);
		await vi.waitFor(() => expect(b.state.deletionsAsked).toBe(12));

		// Set aside in one tab, the question stays asked (Settings → Sync still offers the answers).
		b.state.deletionsSetAside = true;
		expect(b.state.deletionsAsked).toBe(12);
		// Answered in the tab that only watches: the owner's worker hears it.
		b.state.answerDeletions(false);
		await vi.waitFor(() => expect(a.worker().answers).toEqual([false]));
		a.worker().emit({ state: 'up-to-date', at: 9, skipped: 0 });
		await vi.waitFor(() => expect(b.state.deletionsAsked).toBeNull());
		expect(b.state.deletionsSetAside).toBe(false);

		// Answered where sync runs: straight to its worker. No question asked: no answer sent.
		a.worker().emit({ state: 'confirm-deletions', count: 11 });
		a.state.answerDeletions(true);
		expect(a.worker().answers).toEqual([false, true]);
		a.worker().emit({ state: 'up-to-date', at: 10, skipped: 0 });
		a.state.answerDeletions(true);
		b.state.answerDeletions(true);
		await Promise.resolve();
		expect(a.worker().answers).toEqual([false, true]);
	});

	it('Start sync in a watching tab moves the loop there; the old owner stops its worker and shows the new status', async () => {
		const { tab } = browser();
		const a = tab();
		const b = tab();
		a.state.follow({ server: SERVER, username: 'alice' });
		await vi.waitFor(() => expect(a.worker()?.running).toBe(true));
		b.state.follow({ server: SERVER, username: 'alice' });
		expect(b.state.role).toBe('watching');

		await b.state.begin({ server: SERVER, username: 'alice', password: 'secret' });
		await vi.waitFor(() => expect(b.state.role).toBe('owner'));
		await vi.waitFor(() => expect(b.worker()?.runs).toHaveLength(1));
		expect(b.worker().runs[0].credentials).toEqual({ name: 'alice', password: 'secret' });
		await vi.waitFor(() => expect(a.worker().closed).toBe(true));
		expect(a.state.role).toBe('watching');
		b.worker().emit({ state: 'sending', done: 3, total: 9 });
		await vi.waitFor(() => expect(a.state.text).toBe('Sending 3 of 9'));

		// When the new owner closes, the old one takes the loop back.
		b.state.close();
		await vi.waitFor(() => expect(a.state.role).toBe('owner'));
		await vi.waitFor(() => expect(a.workers).toHaveLength(2));
	});

	it('Stop sync in another tab (sync off in the settings) stops the owner', async () => {
		const { tab, locks } = browser();
		const a = tab();
		a.state.follow({ server: SERVER, username: '' });
		await vi.waitFor(() => expect(a.worker()?.running).toBe(true));
		a.state.follow(null);
		expect(a.state.text).toBe('Sync is off.');
		await vi.waitFor(() => expect(a.worker().closed).toBe(true));
		await vi.waitFor(() => expect(locks.holder).toBeNull());
	});

	it('passes the page going offline or hidden to the worker', async () => {
		const { tab } = browser();
		const a = tab();
		a.state.follow({ server: SERVER, username: '' });
		await vi.waitFor(() => expect(a.worker()?.running).toBe(true));
		a.page.online = false;
		a.page.visible = false;
		a.firePage();
		expect(a.worker().online.at(-1)).toBe(false);
		expect(a.worker().visible.at(-1)).toBe(false);
		a.worker().emit({ state: 'offline' });
		expect(a.state.text).toBe('Offline: will retry');
	});

	it('a worker that cannot start says so in the status', async () => {
		const broken = new SyncState({
			profile: 'default',
			save: async () => true,
			locks: new FakeLocks(),
			openChannel: () => ({ post: () => {}, close: () => {} }),
			startWorker: async () => {
				throw new Error('Failed to fetch dynamically imported module');
			},
			online: () => true,
			visible: () => true,
			watchPage: () => () => {}
		});
		broken.follow({ server: SERVER, username: '' });
		await vi.waitFor(() => expect(broken.text).toBe('Sync could not start: Failed to fetch dynamically imported module. Reload the page to try again.'));
		expect(broken.stalled).toBe(true);
	});
});
