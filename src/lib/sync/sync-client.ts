// The page's handle on the sync worker: started by the tab that owns sync (never with the page),
// a run's statuses carried back over comlink, and a worker that fails to load reported as such.
import { proxy, releaseProxy, wrap } from 'comlink';
import type { SyncRunRequest, SyncWorkerApi } from './sync-runner';
import type { SyncStatus } from './sync-status';

export interface SyncWorker {
	/** Settles when the run ends: stopped, or a failure only the user can mend (reported first). */
	run(request: SyncRunRequest, onStatus: (status: SyncStatus) => void): Promise<void>;
	setOnline(online: boolean): void;
	setVisible(visible: boolean): void;
	/** The user's word on the sessions the run asks about (status 'confirm-deletions'): move them here, or keep them everywhere. */
	answerDeletions(move: boolean): void;
	stop(): void;
	close(): void;
}

export function startSyncWorker(): SyncWorker {
	const worker = new Worker(new URL('./sync.worker.ts', import.meta.url), { type: 'module', name: 'sync' });
	const api = wrap<SyncWorkerApi>(worker);
	// A worker whose script cannot load (offline before the app was cached) never answers: its error ends the run.
	const failed = new Promise<never>((_, reject) => {
		worker.addEventListener('error', (event) => {
			event.preventDefault();
			reject(new Error(event.message || 'the sync worker could not start'));
		});
	});
	failed.catch(() => {});
	return {
		run: (request, onStatus) => Promise.race([api.run(request, proxy(onStatus)), failed]),
		setOnline: (online) => void api.setOnline(online).catch(() => {}),
		setVisible: (visible) => void api.setVisible(visible).catch(() => {}),
		answerDeletions: (move) => void api.answerDeletions(move).catch(() => {}),
		stop: () => void api.stop().catch(() => {}),
		close: () => {
			api[releaseProxy]();
			worker.terminate();
		}
	};
}
