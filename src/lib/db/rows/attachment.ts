// The images and files attached to a user's message, and the Blob rows that hold their bytes.

/**
 * A Blob a synced message refers to that is not on this device: larger than the limit for
 * synced attachments on the device that sent it (`limit` there) or on this one (`limit` here),
 * refused as not what its message says, or still on its way.
 */
export interface BlobNotSynced {
	id: string;
	/** Bytes. */
	size: number;
	reason: 'sender-limit' | 'own-limit' | 'refused' | 'arriving';
	/** Bytes: the limit that kept it back (for the two limits). */
	limit?: number;
}

/** An image attached to a user's message: shown as a thumbnail, sent in each wire format's image part. */
export interface ImageAttachment {
	type: 'image';
	/** Its bytes: the `blobs` row of the same session under this id. */
	id: string;
	/** The file's name, as the user's system gave it. */
	name: string;
	mimeType: string;
	/** Bytes, as stored. */
	size: number;
	width: number;
	height: number;
}

/**
 * A text file or PDF attached to a user's message: a text file is sent as a text part headed by
 * its name; a PDF as a document to providers that read PDFs, and as its text to the others.
 */
export interface FileAttachment {
	type: 'file';
	id: string;
	name: string;
	mimeType: string;
	size: number;
	/** A PDF's pages. */
	pages?: number;
	/**
	 * A PDF's text, read once when it was attached. Kept here, as text and never as bytes, so a
	 * request to a provider that cannot read PDFs needs neither PDF.js nor the worker, and
	 * export, import and sync carry it with the message.
	 */
	text?: string;
}

export type Attachment = ImageAttachment | FileAttachment;

/** The bytes of an image or file a message of the session shows (see ImageRef, Attachment), deleted with the session. */
export interface BlobRow {
	session_id: string;
	id: string;
	type: string;
	data: Blob;
}
