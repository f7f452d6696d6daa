// The one "Session actions" menu of the sidebar: which session it is open for, and the button
// that opened it (the menu is placed beside it, and gives focus back to it when it closes).

export class SessionMenuState {
	/** The session the menu acts on, while it is open. */
	sessionId = $state<string | null>(null);
	anchor = $state.raw<HTMLElement | null>(null);

	open(sessionId: string, anchor: HTMLElement): void {
		this.sessionId = sessionId;
		this.anchor = anchor;
	}

	/** Closes the menu; `refocus` puts focus back on the button that opened it. */
	close(refocus = false): void {
		const anchor = this.anchor;
		this.sessionId = null;
		this.anchor = null;
		if (refocus && anchor?.isConnected) anchor.focus();
	}
}

export const sessionMenu = new SessionMenuState();
