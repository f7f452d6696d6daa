// One confirmation dialog for the whole app (deleting sessions, archiving several, /exit
// --delete): whoever needs a yes asks here and awaits the answer; ConfirmHost shows it.

/**
 * Words that may name sessions: a `{ title }` part is shown isolated from the words around it,
 * so a title's direction (right-to-left, say) never reorders them.
 */
export type Wording = string | readonly (string | { title: string })[];

/** The plain text of `wording`. */
export function wordingText(wording: Wording): string {
	return typeof wording === 'string' ? wording : wording.map((part) => (typeof part === 'string' ? part : part.title)).join('');
}

export interface ConfirmRequest {
	title: string;
	message: Wording;
	/** The confirming button's name: the action itself ("Delete", "Archive"). */
	confirmLabel: string;
	danger?: boolean;
	/** Lines listed under the message (the sessions a deletion takes), with the list's name. */
	items?: Wording[];
	itemsLabel?: string;
	/** A second way on, beside the confirming one ("Send anyway"): see `choose`. */
	alternativeLabel?: string;
}

/** Which button answered: the confirming one, the alternative, or Cancel (Escape, a newer question). */
export type ConfirmChoice = 'confirm' | 'alternative' | 'cancel';

export class ConfirmState {
	current = $state<ConfirmRequest | null>(null);
	#resolve: ((choice: ConfirmChoice) => void) | null = null;

	/** Resolves true on the confirming button, false on Cancel or Escape (or a newer question). */
	async ask(request: ConfirmRequest): Promise<boolean> {
		return (await this.choose(request)) === 'confirm';
	}

	/** As `ask`, for a question with an alternative: resolves to the button that answered. */
	choose(request: ConfirmRequest): Promise<ConfirmChoice> {
		this.#resolve?.('cancel');
		this.current = request;
		return new Promise((resolve) => (this.#resolve = resolve));
	}

	answer(choice: boolean | ConfirmChoice): void {
		const resolve = this.#resolve;
		this.#resolve = null;
		this.current = null;
		resolve?.(choice === true ? 'confirm' : choice === false ? 'cancel' : choice);
	}
}
