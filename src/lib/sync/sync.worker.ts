// Web Worker entry: runs sync over the profile's database, so sending and receiving (and reading
// whatever the server sends) never block the page.
import { expose } from 'comlink';
import { openProfileDb, type PalimpsestDb } from '../db/database';
import { onTablesChanged } from '../db/watch';
import { readSetting } from '../db/settings-verbs';
import { createSyncStore } from './dexie-sync-store';
import { createKeyStore } from './dexie-key-store';
import { attachmentLimitBytes, MAX_ATTACHMENT_MB } from './attachment-limit';
import { KEEP_DELETED_DAYS } from './keep-deleted-days';
import { createSyncWorkerApi } from './sync-runner';
import { busySessions } from '../sessions/work-lock';
import type { LocalProvider } from './dexie-context';

/** Settings → Sync's "Keep deleted sessions' sync records for (days)", read at each look. */
async function readKeepDeletedDays(db: PalimpsestDb): Promise<number> {
	const days = await readSetting(db, 'sync.keep_deleted_days');
	return typeof days === 'number' ? days : KEEP_DELETED_DAYS;
}

/** Settings → Sync's "Largest attachment that syncs (MB)", in bytes, read at each look. */
async function readAttachmentLimit(db: PalimpsestDb): Promise<number> {
	const megabytes = await readSetting(db, 'sync.max_attachment_mb');
	return attachmentLimitBytes(typeof megabytes === 'number' ? megabytes : MAX_ATTACHMENT_MB);
}

/** This device's providers, as sync matches a session's provider with them (by server and model, never by key). */
async function readProviders(db: PalimpsestDb): Promise<LocalProvider[]> {
	const providers = await readSetting(db, 'providers');
	if (!Array.isArray(providers)) return [];
	return providers.flatMap((provider: Record<string, unknown>) =>
		typeof provider?.id === 'string' && typeof provider.preset === 'string'
			? [
					{
						id: provider.id,
						preset: provider.preset,
						base_url: typeof provider.base_url === 'string' ? provider.base_url : '',
						name: typeof provider.name === 'string' ? provider.name : typeof provider.label === 'string' ? provider.label : '',
						model: typeof provider.model === 'string' ? provider.model : ''
					}
				]
			: []
	);
}

expose(
	createSyncWorkerApi((profile) => {
		const db = openProfileDb(profile);
		try {
			return {
				store: createSyncStore(db, {
					profile,
					keepDeletedDays: () => readKeepDeletedDays(db),
					attachmentLimit: () => readAttachmentLimit(db),
					providers: () => readProviders(db),
					busy: async () => (await busySessions(profile)).working
				}),
				keys: createKeyStore(db),
				watch: (onChange) => onTablesChanged(db, ['sessions', 'messages', 'blobs', 'prompts', 'assistants'], onChange),
				close: () => db.close()
			};
		} catch (error) {
			db.close();
			throw error;
		}
	})
);
