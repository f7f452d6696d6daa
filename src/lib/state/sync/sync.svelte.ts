// Sync as the page sees it: the server and username kept in the profile's settings, the
// password held in this tab's memory only, and one tab per profile running the loop in a worker
// (a Web Lock decides which). The other tabs show that tab's status, and one of them takes over
// when it closes; Start sync in any tab moves the loop there, with the password typed there.
// This module loads only once sync is turned on.
import { readServerUrl } from '../../sync/server-url';
import type { SyncWorker } from '../../sync/sync-client';
import type { SyncRunRequest } from '../../sync/sync-runner';
import { statusError } from '../../sync/sync-error';
import { describeStatus, type SyncStatus } from '../../sync/sync-status';

export type { SyncStatus };

export interface SyncConfig {
	server: string;
	username: string;
}

/** The part of the Web Locks API sync uses (navigator.locks). */
export interface SyncLocks {
	request(name: string, options: { signal?: AbortSignal; steal?: boolean }, callback: (lock: unknown) => Promise<void>): Promise<unknown>;
}

export interface SyncChannel {
	post(message: SyncMessage): void;
	close(): void;
}

/** What the tabs of a profile tell each other about sync. */
export type SyncMessage =
	| { type: 'ask' }
	| { type: 'status'; status: SyncStatus; lastSyncAt: number | null }
	/** The user's word, in a tab that watches, on the deletions the owning tab's sync asks about. */
	| { type: 'answer-deletions'; move: boolean };

export interface SyncHost {
	profile: string;
	/** Stores sync's settings (never synced nor exported); resolves to whether they landed. */
	save(patch: { 'sync.enabled'?: boolean; 'sync.server'?: string; 'sync.username'?: string; 'sync.last_at'?: number }): Promise<boolean>;
	locks: SyncLocks;
	openChannel(name: string, onMessage: (message: unknown) => void): SyncChannel;
	startWorker(): Promise<SyncWorker>;
	online(): boolean;
	visible(): boolean;
	/** Calls `onChange` when the network or the page's visibility changes; returns its undo. */
	watchPage(onChange: () => void): () => void;
}

/** What the server says when it needs a login and no password is held. */
const LOGIN_NEEDED = statusError(401).reason;
/** The last sync time is stored at most this often (every long-poll ends up to date). */
const STORE_LAST_EVERY_MS = 60_000;
/** How long a stopping run may take before its worker is ended anyway. */
const STOP_WAIT_MS = 3_000;

export class SyncState {
	/** The loop's latest status, this tab's or the owning tab's. */
	status = $state.raw<SyncStatus | null>(null);
	lastSyncAt = $state<number | null>(null);
	/** 'owner': this tab runs the loop; 'watching': another tab does, and this one shows its status. */
	role = $state<'off' | 'owner' | 'watching'>('off');
	/** The database is encrypted with a sync passphrase (as the last status said). */
	sealed = $state(false);
	#host: SyncHost;
	#config: SyncConfig | null = null;
	/** Held for the login while this tab is open; never stored, never sent to another tab. */
	#password: string | null = null;
	/** Typed in Sync passphrase (or a new one to change to): handed to the next run only, which keeps the key it gives, never the passphrase. */
	#passphrase: string | null = null;
	#newPassphrase: string | null = null;
	/** The passphrase of the last run, kept until it is up to date: Create database after a 404 encrypts with it too. */
	#lastPassphrase: string | null = null;
	/** Ends this tab's part in sync: its lock request, or its ownership. */
	#following: AbortController | null = null;
	/** Ends the current run inside the ownership (to start again with new credentials). */
	#session: AbortController | null = null;
	#channel: SyncChannel | null = null;
	#storedLastAt = 0;
	/** The worker of this tab's run, while it owns sync. */
	#worker: SyncWorker | null = null;
	/** The user closed the question about deletions (it stays in Settings → Sync until answered). */
	deletionsSetAside = $state(false);
	/** The next run creates the database first (Create database), once. */
	#create = false;

	constructor(host: SyncHost, lastSyncAt: number | null = null) {
		this.#host = host;
		this.lastSyncAt = lastSyncAt;
		this.#storedLastAt = lastSyncAt ?? 0;
	}

	/** What the status region says: the loop's status, or the error and what to do. */
	get text(): string {
		if (this.role === 'off') return 'Sync is off.';
		const status = this.status;
		if (!status) return this.role === 'owner' ? 'Starting sync…' : 'Sync runs in another tab of this profile.';
		if (status.state === 'error' && status.reason === LOGIN_NEEDED) {
			const who = this.#config?.username ? ` for ${this.#config.username}` : '';
			return `The sync server asks for a login: enter the password${who} and press Start sync.`;
		}
		return describeStatus(status);
	}

	/** The run stopped on a failure only the user can mend: Start sync tries again. */
	get stalled(): boolean {
		return this.status?.state === 'error' && this.status.retryAt === null;
	}

	/** How many sessions sync asks about (deleted elsewhere, more than it takes without asking), or null. */
	get deletionsAsked(): number | null {
		return this.role !== 'off' && this.status?.state === 'confirm-deletions' ? this.status.count : null;
	}

	/**
	 * The user's word on the deletions asked about: move them to "Recently deleted" here (true), or
	 * keep them, which restores them on every device (false). From a tab that only watches, it goes
	 * to the tab that runs sync.
	 */
	answerDeletions(move: boolean): void {
		if (this.deletionsAsked === null) return;
		if (this.role === 'owner') this.#worker?.answerDeletions(move);
		else this.#channel?.post({ type: 'answer-deletions', move });
	}

	/** The first sync's progress while it sends or receives (total null: not known). */
	get progress(): { done: number; total: number | null } | null {
		const status = this.status;
		if (this.lastSyncAt !== null || !status || (status.state !== 'sending' && status.state !== 'receiving')) return null;
		return { done: status.done, total: status.total };
	}

	/**
	 * Starts sync with what the form holds: checks the address, holds the password in memory,
	 * runs the loop in this tab (taking it from another tab that had it), and stores the server
	 * and username. Throws a sentence for the form.
	 */
	async begin(input: { server: string; username: string; password: string; passphrase?: string }): Promise<void> {
		const server = readServerUrl(input.server);
		const username = input.username.trim();
		if (input.password && !username) throw new Error('Enter the username that goes with the password.');
		this.#config = { server, username };
		this.#password = username && input.password ? input.password : null;
		this.#passphrase = input.passphrase || null;
		if (this.role === 'owner') this.#restart();
		else this.#follow(true);
		if (!(await this.#host.save({ 'sync.enabled': true, 'sync.server': server, 'sync.username': username }))) {
			this.#off();
			throw new Error('Sync could not be turned on: its settings could not be saved.');
		}
	}

	/**
	 * Starts sync as Start sync does, creating the database first (the server said it does not
	 * exist): the password typed, or the one held for the same server and user, logs in for it.
	 * Whether the server would create it, the status says.
	 */
	async createDatabase(input: { server: string; username: string; password: string; passphrase?: string }): Promise<void> {
		const server = readServerUrl(input.server);
		const username = input.username.trim();
		const same = this.#config?.server === server && this.#config.username === username;
		const held = same ? this.#password : null;
		const passphrase = input.passphrase || (same ? this.#lastPassphrase : null) || undefined;
		this.#create = true;
		try {
			await this.begin({ server, username, password: input.password || held || '', passphrase });
		} catch (error) {
			this.#create = false;
			throw error;
		}
	}

	/** Changes the sync passphrase: the run here makes its key, tells the other devices, and seals every document again with it. */
	changePassphrase(next: string): void {
		if (!next) throw new Error('Enter the new sync passphrase.');
		if (!this.#config) throw new Error('Start sync first.');
		this.#newPassphrase = next;
		if (this.role === 'owner') this.#restart();
		else this.#follow(true);
	}

	/** Turns sync off for the profile: every tab stops following it. */
	async end(): Promise<void> {
		this.#off();
		await this.#host.save({ 'sync.enabled': false });
	}

	/** Follows the stored settings (changed here or in another tab): sync on with `config`, or off. */
	follow(config: SyncConfig | null): void {
		if (!config) return this.#off();
		const same = this.#config?.server === config.server && this.#config.username === config.username;
		if (same && this.#following) return;
		// Another address or user: a password typed for the old one is not sent to the new one.
		if (!same) this.#password = this.#passphrase = this.#newPassphrase = this.#lastPassphrase = null;
		this.#config = config;
		if (this.role === 'owner') this.#restart();
		else this.#follow(false);
	}

	close(): void {
		this.#off();
	}

	#off(): void {
		this.#following?.abort();
		this.#following = null;
		this.#session = null;
		this.#channel?.close();
		this.#channel = null;
		this.#password = this.#passphrase = this.#newPassphrase = this.#lastPassphrase = null;
		this.sealed = false;
		this.role = 'off';
		this.status = null;
		this.deletionsSetAside = false;
	}

	#restart(): void {
		this.#session?.abort();
	}

	/** Waits for the profile's lock (or takes it, `steal`) and runs the loop while holding it. */
	#follow(steal: boolean): void {
		this.#following?.abort();
		const following = new AbortController();
		this.#following = following;
		if (this.role !== 'owner') this.role = 'watching';
		this.#channel ??= this.#host.openChannel(`palimpsest-sync:${this.#host.profile}`, (message) => this.#hear(message));
		if (!steal) this.#channel.post({ type: 'ask' });
		// The Web Locks API refuses a signal with steal; a stolen lock is granted at once anyway.
		const options = steal ? { steal: true } : { signal: following.signal };
		this.#host.locks
			.request(`palimpsest-sync:${this.#host.profile}`, options, async () => {
				if (following.signal.aborted) return;
				this.role = 'owner';
				await this.#hold(following.signal);
			})
			.catch(() => {
				if (following.signal.aborted) return;
				// Another tab took the loop (Start sync there): this one watches and waits its turn again.
				following.abort();
				if (this.#following === following) {
					this.role = 'watching';
					this.#follow(false);
				}
			});
	}

	/** Runs the loop in a worker until `held` ends; a run ended by a failure waits here for Start sync. */
	async #hold(held: AbortSignal): Promise<void> {
		let worker: SyncWorker;
		try {
			worker = await this.#host.startWorker();
		} catch (error) {
			this.#report({ state: 'error', reason: `Sync could not start: ${message(error)}. Reload the page to try again.`, retryAt: null });
			return untilAborted(held);
		}
		this.#worker = worker;
		const unwatch = this.#host.watchPage(() => {
			worker.setOnline(this.#host.online());
			worker.setVisible(this.#host.visible());
		});
		try {
			while (!held.aborted) {
				const session = new AbortController();
				this.#session = session;
				const ends = AbortSignal.any([held, session.signal]);
				const run = worker
					.run(this.#request(), (status) => {
						if (!ends.aborted) this.#report(status);
					})
					.catch((error) => {
						if (!ends.aborted) this.#report({ state: 'error', reason: `Sync stopped: ${message(error)}. Reload the page to try again.`, retryAt: null });
					});
				await untilAborted(ends);
				worker.stop();
				await Promise.race([run, new Promise((resolve) => setTimeout(resolve, STOP_WAIT_MS))]);
			}
		} finally {
			if (this.#worker === worker) this.#worker = null;
			unwatch();
			worker.close();
		}
	}

	#request(): SyncRunRequest {
		const config = this.#config!;
		const create = this.#create;
		this.#create = false;
		const [passphrase, newPassphrase] = [this.#passphrase, this.#newPassphrase];
		this.#passphrase = this.#newPassphrase = null;
		this.#lastPassphrase = passphrase;
		return {
			...(create ? { create } : {}),
			passphrase,
			newPassphrase,
			profile: this.#host.profile,
			url: config.server,
			credentials: this.#password === null ? null : { name: config.username, password: this.#password },
			online: this.#host.online(),
			visible: this.#host.visible()
		};
	}

	#report(status: SyncStatus): void {
		this.#show(status);
		if (status.state === 'up-to-date') {
			this.lastSyncAt = status.at;
			if (status.at - this.#storedLastAt >= STORE_LAST_EVERY_MS) {
				this.#storedLastAt = status.at;
				void this.#host.save({ 'sync.last_at': status.at });
			}
		}
		this.#channel?.post({ type: 'status', status, lastSyncAt: this.lastSyncAt });
	}

	/** The loop's latest status, and whether it says the database is encrypted. */
	#show(status: SyncStatus): void {
		// A question set aside comes back with the next one.
		if (status.state !== 'confirm-deletions') this.deletionsSetAside = false;
		this.status = status;
		if (status.state === 'up-to-date') {
			this.#lastPassphrase = null;
			this.sealed = status.sealed === true;
		} else if (status.state === 'error' && status.kind === 'passphrase') this.sealed = false;
	}

	/** A message from another tab of this profile. */
	#hear(message: unknown): void {
		if (typeof message !== 'object' || message === null) return;
		const heard = message as Partial<SyncMessage>;
		if (heard.type === 'ask' && this.role === 'owner' && this.status) {
			this.#channel?.post({ type: 'status', status: this.status, lastSyncAt: this.lastSyncAt });
		} else if (heard.type === 'answer-deletions' && this.role === 'owner' && typeof heard.move === 'boolean') {
			this.answerDeletions(heard.move);
		} else if (heard.type === 'status' && this.role === 'watching' && typeof heard.status === 'object' && heard.status !== null) {
			this.#show(heard.status);
			if (typeof heard.lastSyncAt === 'number') this.lastSyncAt = heard.lastSyncAt;
		}
	}
}

function untilAborted(signal: AbortSignal): Promise<void> {
	return new Promise((resolve) => {
		if (signal.aborted) return resolve();
		signal.addEventListener('abort', () => resolve(), { once: true });
	});
}

function message(error: unknown): string {
	return (error instanceof Error ? error.message : String(error)).replace(/\.$/, '');
}
