// The screen the app is shown on: a narrow one turns the sessions sidebar into a drawer that
// slides in from the left (menu button, a swipe from the edge, Escape or a tap beside it
// closes it); a touch screen gets no key hints. On a phone the on-screen keyboard shrinks the
// visual viewport, and the app's height follows it so the Message box stays above the keyboard.

/** Must match the breakpoint of the stylesheets (app.css and the layout). */
export const NARROW_QUERY = '(max-width: 720px)';
const TOUCH_QUERY = '(pointer: coarse)';
/** A swipe starts this close to the left edge to open the drawer, and travels this far. */
const EDGE_PX = 24;
const SWIPE_PX = 60;

export class LayoutState {
	narrow = $state(false);
	touch = $state(false);
	drawerOpen = $state(false);

	start(): () => void {
		const narrow = matchMedia(NARROW_QUERY);
		const touch = matchMedia(TOUCH_QUERY);
		const read = () => {
			this.narrow = narrow.matches;
			this.touch = touch.matches;
			if (!this.narrow) this.drawerOpen = false;
		};
		read();
		narrow.addEventListener('change', read);
		touch.addEventListener('change', read);
		const stops = [followKeyboard(), this.#followSwipes()];
		return () => {
			narrow.removeEventListener('change', read);
			touch.removeEventListener('change', read);
			stops.forEach((stop) => stop());
		};
	}

	toggleDrawer(): void {
		this.drawerOpen = !this.drawerOpen;
	}

	closeDrawer(): void {
		this.drawerOpen = false;
	}

	/** A swipe right from the left edge opens the drawer; a swipe left closes it. */
	#followSwipes(): () => void {
		let start: { x: number; y: number } | null = null;
		const onStart = (event: TouchEvent) => {
			const touch = event.touches[0];
			start = this.narrow && event.touches.length === 1 && (this.drawerOpen || touch.clientX <= EDGE_PX) ? { x: touch.clientX, y: touch.clientY } : null;
		};
		const onEnd = (event: TouchEvent) => {
			const touch = event.changedTouches[0];
			if (!start || !touch) return;
			const dx = touch.clientX - start.x;
			const dy = touch.clientY - start.y;
			start = null;
			// Mostly sideways: a vertical scroll of the list is no swipe.
			if (Math.abs(dx) < SWIPE_PX || Math.abs(dx) < Math.abs(dy) * 1.5) return;
			this.drawerOpen = dx > 0;
		};
		document.addEventListener('touchstart', onStart, { passive: true });
		document.addEventListener('touchend', onEnd, { passive: true });
		return () => {
			document.removeEventListener('touchstart', onStart);
			document.removeEventListener('touchend', onEnd);
		};
	}
}

/**
 * Sets --app-height to the visual viewport's height while the page is not zoomed, so the app
 * ends where the on-screen keyboard begins (browsers that resize the layout instead need none).
 */
function followKeyboard(): () => void {
	const viewport = window.visualViewport;
	if (!viewport) return () => {};
	const root = document.documentElement;
	const update = () => {
		const keyboard = Math.abs(viewport.scale - 1) < 0.01 && viewport.height < window.innerHeight - 1;
		if (keyboard) root.style.setProperty('--app-height', `${Math.round(viewport.height)}px`);
		else root.style.removeProperty('--app-height');
	};
	viewport.addEventListener('resize', update);
	return () => {
		viewport.removeEventListener('resize', update);
		root.style.removeProperty('--app-height');
	};
}

export const layout = new LayoutState();
