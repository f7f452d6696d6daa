// The sync worker's side of sync: one SyncLoop at a time over the profile's store, with the
// page's view of the network and of its visibility, every status reported back to the page, and
// a pass started soon after each local write. A run asked to create the database does so first.
import type { Credentials } from './couch-client';
import { memoryKeyStore, type KeyStore } from './keyring';
import { SealingSetup } from './prepare-sealing';
import { SealedClient } from './sealed-client';
import { SyncLoop, type Subscribe } from './sync-loop';
import { SyncError } from './sync-error';
import type { SyncStatus } from './sync-status';
import type { SyncStore } from './sync-store';

export interface SyncRunRequest {
	profile: string;
	/** The database's URL. */
	url: string;
	/** Held for the cookie login while this run lasts, never stored. */
	credentials: Credentials | null;
	online: boolean;
	visible: boolean;
	/** Create the database first (the user pressed Create database after the server said it does not exist). */
	create?: boolean;
	/** Typed in Settings → Sync passphrase for this run, never stored: makes or opens the database's key, then is forgotten. */
	passphrase?: string | null;
	/** A new passphrase: the database's documents are sealed again with its key. */
	newPassphrase?: string | null;
}

/** The profile's store, opened for one run. */
export interface LocalStore {
	store: SyncStore;
	/** Where the keys of an encrypted database are kept (in memory when absent). */
	keys?: KeyStore;
	/** Calls `onChange` after each committed write that may leave something to send; returns its undo. */
	watch(onChange: () => void): () => void;
	close(): void;
}

export interface SyncWorkerApi {
	/** Runs the loop until `stop`, or until a failure only the user can mend; a run already going ends first. */
	run(request: SyncRunRequest, onStatus: (status: SyncStatus) => void): Promise<void>;
	setOnline(online: boolean): void;
	setVisible(visible: boolean): void;
	/** The user's word on sessions deleted elsewhere (see the status 'confirm-deletions'): move them, or keep them. */
	answerDeletions(move: boolean): void;
	stop(): void;
}

/** A burst of writes (a streaming answer's checkpoints) makes one pass, this long after the last. */
export const NUDGE_DELAY_MS = 500;

export function createSyncWorkerApi(open: (profile: string) => LocalStore, fetchImpl?: typeof fetch): SyncWorkerApi {
	let online = true;
	let visible = false;
	const onlineListeners = new Set<() => void>();
	const visibleListeners = new Set<() => void>();
	const subscribe =
		(listeners: Set<() => void>): Subscribe =>
		(listener) => {
			listeners.add(listener);
			return () => listeners.delete(listener);
		};
	let running: AbortController | null = null;
	let current: SyncLoop | null = null;

	return {
		async run(request, onStatus) {
			running?.abort();
			const controller = new AbortController();
			running = controller;
			online = request.online;
			visible = request.visible;
			let local: LocalStore;
			try {
				local = open(request.profile);
			} catch (error) {
				onStatus({ state: 'error', reason: couldNotStart(error), retryAt: null });
				return;
			}
			const credentials = request.credentials;
			const client = new SealedClient({ url: request.url, credentials: () => credentials, fetch: fetchImpl });
			const report = (status: SyncStatus) => {
				if (!controller.signal.aborted) onStatus(status.state === 'up-to-date' ? { ...status, sealed: client.sealed } : status);
			};
			const sealing = new SealingSetup({
				client,
				keys: local.keys ?? memoryKeyStore(),
				passphrase: request.passphrase,
				change: request.newPassphrase,
				onProgress: (done, total) => report({ state: 'sending', done, total })
			});
			const loop = new SyncLoop({
				store: local.store,
				client,
				beforePass: (signal) => sealing.prepare(signal),
				onStatus: report,
				online: () => online,
				onOnline: subscribe(onlineListeners),
				visible: () => visible,
				onVisible: subscribe(visibleListeners)
			});
			current = loop;
			let timer: ReturnType<typeof setTimeout> | undefined;
			const unwatch = local.watch(() => {
				clearTimeout(timer);
				timer = setTimeout(() => loop.nudge(), NUDGE_DELAY_MS);
			});
			try {
				if (request.create) await client.createDatabase(controller.signal);
				await loop.run(controller.signal);
			} catch (error) {
				// A database the server would not create says why; the user changes something and tries again.
				if (controller.signal.aborted) return;
				if (error instanceof SyncError) onStatus({ state: 'error', reason: error.reason, retryAt: null, kind: error.kind });
				else onStatus({ state: 'error', reason: couldNotStart(error), retryAt: null });
			} finally {
				unwatch();
				clearTimeout(timer);
				local.close();
				if (running === controller) running = null;
				if (current === loop) current = null;
			}
		},
		setOnline(value) {
			if (value === online) return;
			online = value;
			for (const listener of [...onlineListeners]) listener();
		},
		setVisible(value) {
			if (value === visible) return;
			visible = value;
			for (const listener of [...visibleListeners]) listener();
		},
		answerDeletions(move) {
			current?.answerDeletions(move);
		},
		stop() {
			running?.abort();
			running = null;
		}
	};
}

function couldNotStart(error: unknown): string {
	const detail = error instanceof Error ? error.message : String(error);
	return `Sync could not run in this browser (${detail.replace(/\.$/, '')}). Stop sync, reload the page and start it again.`;
}
