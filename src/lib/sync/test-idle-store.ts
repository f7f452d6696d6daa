// For the loop's tests: a sync store with nothing to send and nothing ever applied, so a test sees
// only what the loop does with the network.
import type { SyncStore } from './sync-store';

export function idleStore(): SyncStore {
	let checkpoint: string | null = null;
	return {
		deviceId: async () => 'device-1',
		replication: async () => null,
		startReplication: async () => {},
		pendingCount: async () => 0,
		pending: async () => ({ docs: [], after: { edit: null, outbox: null } }),
		markPushed: async () => {},
		applyPulled: async (_docs, next) => {
			if (next !== null) checkpoint = next;
			return { deleted: 0 };
		},
		checkpoint: async () => checkpoint,
		sessionsToRead: async () => [],
		sessionRead: async () => {},
		readBlob: async () => undefined,
		wantedBlobs: async (docs) => docs.map(() => false)
	};
}
