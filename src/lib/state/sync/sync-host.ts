// The browser's side of SyncState: the profile's settings, Web Locks, a BroadcastChannel between
// the profile's tabs, the sync worker, and the page's network and visibility.
import type { SettingsState } from '../settings/settings.svelte';
import { SyncState, type SyncHost, type SyncMessage } from './sync.svelte';

export function browserSyncHost(settings: SettingsState, profile: string): SyncHost {
	return {
		profile,
		save: (patch) => settings.update(patch),
		locks: navigator.locks,
		openChannel(name, onMessage) {
			const channel = new BroadcastChannel(name);
			channel.onmessage = (event) => onMessage(event.data);
			return { post: (message: SyncMessage) => channel.postMessage(message), close: () => channel.close() };
		},
		startWorker: () => import('../../sync/sync-client').then(({ startSyncWorker }) => startSyncWorker()),
		online: () => navigator.onLine,
		visible: () => document.visibilityState === 'visible',
		watchPage(onChange) {
			window.addEventListener('online', onChange);
			window.addEventListener('offline', onChange);
			document.addEventListener('visibilitychange', onChange);
			return () => {
				window.removeEventListener('online', onChange);
				window.removeEventListener('offline', onChange);
				document.removeEventListener('visibilitychange', onChange);
			};
		}
	};
}

export function createSyncState(settings: SettingsState, profile: string): SyncState {
	return new SyncState(browserSyncHost(settings, profile), settings.get('sync.last_at'));
}
