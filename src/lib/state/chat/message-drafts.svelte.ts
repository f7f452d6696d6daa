// The message being written, per session ('' for the new chat): its text, kept across page
// changes, what the meter counts of it, and what is attached to it (the attachments' code loads
// with the first one).
import { SvelteMap } from 'svelte/reactivity';
import { parseCommand } from '../../commands/parse-command';
import type { ModelChoice, Services } from '../app/services';
import type { DraftAttachment, DraftAttachments } from './draft-attachments.svelte';

/** The meter counts what is being typed once typing pauses this long. */
const DRAFT_COUNT_MS = 300;

/** The chat whose drafts these are (see ChatState): which one is on show, and the model its message would go to. */
export interface DraftOwner {
	/** The open session, or null for the new chat (its draft is under ''). */
	readonly sessionId: string | null;
	readonly choice: ModelChoice;
}

export class MessageDrafts {
	/** Tokens of the text on show (counted in the worker, debounced). */
	tokens = $state(0);
	/** Unsent text per session, kept across page changes. */
	#texts = new SvelteMap<string, string>();
	#timer: ReturnType<typeof setTimeout> | undefined;
	/** What is attached to the unsent messages (its code loads with the first attachment). */
	#attachments = $state.raw<DraftAttachments | null>(null);
	#reading: Promise<void> = Promise.resolve();
	#services: Services;
	#owner: DraftOwner;

	constructor(services: Services, owner: DraftOwner) {
		this.#services = services;
		this.#owner = owner;
	}

	/** The key of the draft on show. */
	get #key(): string {
		return this.#owner.sessionId ?? '';
	}

	get text(): string {
		return this.#texts.get(this.#key) ?? '';
	}

	set text(text: string) {
		const key = this.#key;
		if (text) this.#texts.set(key, text);
		else this.#texts.delete(key);
		this.count(text);
	}

	/**
	 * Gives back to session `key`'s draft a message that could not be sent: its attachments, and
	 * its text unless something was typed there since.
	 */
	giveBack(key: string, text: string, taken: DraftAttachment[]): void {
		if (text && !this.#texts.get(key)) this.#texts.set(key, text);
		this.#attachments?.restore(key, taken);
	}

	/** Counts `text` for the meter once typing pauses (a command costs nothing). */
	count(text: string = this.text): void {
		clearTimeout(this.#timer);
		if (!text.trim() || parseCommand(text.trim())) {
			this.tokens = 0;
			return;
		}
		const model = this.#owner.choice.model;
		this.#timer = setTimeout(async () => {
			try {
				const { counts } = await this.#services.worker.countTexts([text], model);
				if (this.text === text) this.tokens = counts[0];
			} catch {
				this.tokens = 0;
			}
		}, DRAFT_COUNT_MS);
	}

	/** The attachments of the unsent message on show, as chips show them. */
	get attachments(): DraftAttachment[] {
		return this.#attachments?.list(this.#key) ?? [];
	}

	/** How many attachments are ready to send (and how many are images), and whether any is still being read. */
	get attachmentStatus(): { ready: number; reading: boolean; images: number } {
		return this.#attachments?.status(this.#key) ?? { ready: 0, reading: false, images: 0 };
	}

	/** Attaches files to the unsent message on show (each read, or refused with its reason). */
	attach(files: readonly File[]): Promise<void> {
		if (!files.length) return Promise.resolve();
		const key = this.#key;
		const reading = (async () => {
			this.#attachments ??= new (await import('./draft-attachments.svelte')).DraftAttachments();
			await this.#attachments.add(key, files);
		})();
		const all = Promise.all([this.#reading, reading]).then(() => {});
		this.#reading = all.catch(() => {});
		return reading;
	}

	/** Settles once every file attached so far is read (or refused). */
	attachmentsRead(): Promise<void> {
		return this.#reading;
	}

	detach(attachment: string): void {
		this.#attachments?.remove(this.#key, attachment);
	}

	/** Takes what is ready to send from session `key`'s message (its images left out when `withoutImages`): giveBack puts it back. */
	take(key: string, withoutImages?: boolean): ReturnType<DraftAttachments['take']> | undefined {
		return this.#attachments?.take(key, withoutImages);
	}
}
