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
}

export class ConfirmState {
	current = $state<ConfirmRequest | null>(null);
	#resolve: ((yes: boolean) => void) | null = null;

	/** Resolves true on the confirming button, false on Cancel or Escape (or a newer question). */
	ask(request: ConfirmRequest): Promise<boolean> {
		this.#resolve?.(false);
		this.current = request;
		return new Promise((resolve) => (this.#resolve = resolve));
	}

	answer(yes: boolean): void {
		const resolve = this.#resolve;
		this.#resolve = null;
		this.current = null;
		resolve?.(yes);
	}
}
