// How long a deleted session's sync record is kept before it is purged, unless Settings → Sync
// says otherwise (`sync.keep_deleted_days`): long enough for every device to learn of it.
export const KEEP_DELETED_DAYS = 30;
