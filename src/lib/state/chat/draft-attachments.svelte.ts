// What the user attached to the message being written, per session like the draft's text:
// each file read as it arrives (off the first screen's code: the reading loads on first use),
// shown as a chip, and refused with its reason when it breaks a limit. Nothing is dropped
// silently: a refused file keeps its chip, saying why, until the user removes it.
import { SvelteMap } from 'svelte/reactivity';
import type { Attachment } from '../../db/schema';
import type { NewAttachments } from '../../agent/run-turn';
import { formatBytes } from '../../hooks/plain-data';
import { MAX_ATTACHMENTS, MAX_MESSAGE_BYTES } from '../../attachments/attachment-limits';

export interface DraftAttachment {
	key: string;
	name: string;
	/** Bytes: the file's while it is read, then what is stored. */
	size: number;
	state: 'reading' | 'ready' | 'refused';
	/** Why it was refused. */
	reason?: string;
	attachment?: Attachment;
	data?: Blob;
}

export class DraftAttachments {
	#bySession = new SvelteMap<string, DraftAttachment[]>();

	list(session: string): DraftAttachment[] {
		return this.#bySession.get(session) ?? [];
	}

	/** Whether the draft of `session` has attachments ready to send, and none still being read. */
	status(session: string): { ready: number; reading: boolean; images: number } {
		const items = this.list(session);
		return {
			ready: items.filter((item) => item.state === 'ready').length,
			reading: items.some((item) => item.state === 'reading'),
			images: items.filter((item) => item.state === 'ready' && item.attachment?.type === 'image').length
		};
	}

	/** Reads each file into the draft of `session`, in order; a file past a limit is refused at its chip. */
	async add(session: string, files: readonly File[]): Promise<void> {
		if (!files.length) return;
		const { readAttachment } = await import('../../attachments/read-attachment');
		const added = files.map((file): DraftAttachment => ({ key: crypto.randomUUID(), name: file.name || 'attachment', size: file.size, state: 'reading' }));
		this.#set(session, [...this.list(session), ...added]);
		for (const [index, file] of files.entries()) {
			const key = added[index].key;
			// The count is known now; the size once read (an image may be made smaller on the way).
			const limit = this.#limitFor(session, key);
			const read = limit ? { ok: false as const, reason: limit } : await readAttachment(file).catch(() => ({ ok: false as const, reason: 'This file could not be read.' }));
			this.#update(session, key, (item) =>
				read.ok
					? { ...item, state: 'ready', name: read.attachment.name, size: read.attachment.size, attachment: read.attachment, data: read.data }
					: { ...item, state: 'refused', reason: read.reason }
			);
			// A read that made the whole message too large is refused after all.
			const after = read.ok ? this.#limitFor(session, key) : null;
			if (after) this.#update(session, key, (item) => ({ ...item, state: 'refused', reason: after, attachment: undefined, data: undefined }));
		}
	}

	remove(session: string, key: string): void {
		this.#set(session, this.list(session).filter((item) => item.key !== key));
	}

	/**
	 * The attachments to send with the draft of `session` (images left out when `withoutImages`),
	 * taken out of the draft; `restore` puts them back when the message could not be stored.
	 */
	take(session: string, withoutImages = false): { sent: NewAttachments; taken: DraftAttachment[] } {
		const taken = this.list(session);
		const ready = taken.filter((item) => item.state === 'ready' && item.attachment && item.data && !(withoutImages && item.attachment.type === 'image'));
		this.#bySession.delete(session);
		return {
			sent: { refs: ready.map((item) => item.attachment!), blobs: ready.map((item) => ({ id: item.attachment!.id, type: item.data!.type, data: item.data! })) },
			taken
		};
	}

	restore(session: string, taken: DraftAttachment[]): void {
		if (!taken.length) return;
		const keys = taken.map((item) => item.key);
		this.#set(session, [...taken, ...this.list(session).filter((item) => !keys.includes(item.key))]);
	}

	/** Why the item `key` would break a limit of the message (with the items before it), or null. */
	#limitFor(session: string, key: string): string | null {
		const kept = this.list(session).filter((item) => item.state !== 'refused');
		const index = kept.findIndex((item) => item.key === key);
		if (index >= MAX_ATTACHMENTS) return `A message takes at most ${MAX_ATTACHMENTS} attachments.`;
		const total = kept.slice(0, index + 1).reduce((sum, item) => sum + (item.state === 'ready' ? item.size : 0), 0);
		if (total > MAX_MESSAGE_BYTES) return `Too large: the attachments of a message may come to at most ${formatBytes(MAX_MESSAGE_BYTES)} together.`;
		return null;
	}

	#update(session: string, key: string, change: (item: DraftAttachment) => DraftAttachment): void {
		const items = this.list(session);
		if (!items.some((item) => item.key === key)) return;
		this.#set(session, items.map((item) => (item.key === key ? change(item) : item)));
	}

	#set(session: string, items: DraftAttachment[]): void {
		if (items.length) this.#bySession.set(session, items);
		else this.#bySession.delete(session);
	}
}
