// What the sync loop reports, and how the status region says it.

export type SyncStatus =
	| { state: 'up-to-date'; at: number; skipped: number }
	| { state: 'sending'; done: number; total: number }
	/** `total` is null when the server does not say how many changes remain. */
	| { state: 'receiving'; done: number; total: number | null }
	| { state: 'offline' }
	/** `retryAt` is null when retrying cannot help: the user must change something first. */
	| { state: 'error'; reason: string; retryAt: number | null };

const count = (n: number) => n.toLocaleString('en-US');

export function describeStatus(status: SyncStatus): string {
	switch (status.state) {
		case 'up-to-date':
			return status.skipped ? `Up to date (${count(status.skipped)} ${status.skipped === 1 ? 'document' : 'documents'} skipped)` : 'Up to date';
		case 'sending':
			return `Sending ${count(status.done)} of ${count(status.total)}`;
		case 'receiving':
			return status.total === null ? `Receiving ${count(status.done)}` : `Receiving ${count(status.done)} of ${count(status.total)}`;
		case 'offline':
			return 'Offline: will retry';
		case 'error':
			return status.reason;
	}
}
