// The largest Blob (an image, an attachment) that travels by sync, unless Settings → Sync says
// otherwise (`sync.max_attachment_mb`); a larger one stays on its device. The same limit bounds
// what a device takes from the server.
export const MAX_ATTACHMENT_MB = 10;

/** Megabytes, as the setting holds them, to bytes. */
export function attachmentLimitBytes(megabytes: number): number {
	return Math.round(megabytes * 1024 * 1024);
}
