// What the sync loop reports, and how the status region says it.
import type { SyncErrorKind } from './sync-error';

export type SyncStatus =
	/** `skipped`: documents refused (unreadable, too large, written from a clock far ahead, or failing to authenticate) since sync started; `sealed`: the database is encrypted. */
	| { state: 'up-to-date'; at: number; skipped: number; sealed?: boolean }
	| { state: 'sending'; done: number; total: number }
	/** `total` is null when the server does not say how many changes remain. */
	| { state: 'receiving'; done: number; total: number | null }
	| { state: 'offline' }
	/** More sessions were deleted elsewhere than a pull moves to "Recently deleted" without asking: the user decides. */
	| { state: 'confirm-deletions'; count: number }
	/** `retryAt` is null when retrying cannot help: the user must change something first. */
	| { state: 'error'; reason: string; retryAt: number | null; kind?: SyncErrorKind };

const count = (n: number) => n.toLocaleString('en-US');

export function describeStatus(status: SyncStatus): string {
	switch (status.state) {
		case 'up-to-date':
			return status.skipped ? `Up to date (${count(status.skipped)} ${status.skipped === 1 ? 'document' : 'documents'} refused)` : 'Up to date';
		case 'sending':
			return `Sending ${count(status.done)} of ${count(status.total)}`;
		case 'receiving':
			return status.total === null ? `Receiving ${count(status.done)}` : `Receiving ${count(status.done)} of ${count(status.total)}`;
		case 'offline':
			return 'Offline: will retry';
		case 'confirm-deletions':
			return `${count(status.count)} sessions were deleted on another device or on the server. Nothing is deleted here until you choose: Delete them here (they wait in Recently deleted), or Keep them (on every device).`;
		case 'error':
			return status.reason;
	}
}
