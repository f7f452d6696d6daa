// The one error an attachment is refused with: its message is written for the user, to show at
// the attachment's chip. Its name survives the trip from the worker (comlink keeps name and
// message), and attachment-client.ts turns it back into this class.

export class AttachmentError extends Error {
	constructor(message: string) {
		super(message);
		this.name = 'AttachmentError';
	}
}

/** Whether `error` is an AttachmentError, here or as it arrives from the worker. */
export function isAttachmentError(error: unknown): error is Error {
	return error instanceof Error && error.name === 'AttachmentError';
}

/** How a file is named in a message: its name when it has one. */
export function nameOf(blob: Blob): string {
	return typeof File !== 'undefined' && blob instanceof File && blob.name ? `“${blob.name}”` : 'This file';
}

/** Bytes as a person reads them: 812 KB, 5 MB, 20.5 MB. */
export function formatBytes(bytes: number): string {
	if (bytes < 1024 * 1024) return `${Math.max(1, Math.round(bytes / 1024))} KB`;
	const mb = bytes / (1024 * 1024);
	return `${Number.isInteger(mb) ? mb : mb.toFixed(1)} MB`;
}
