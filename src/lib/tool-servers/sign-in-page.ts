// Opening the sign-in window, in the user's click (later, a pop-up blocker would refuse it):
// without an opener, so no page it shows can reach the app's tab. Its first page
// (static/sign-in.html) and the app then speak on a BroadcastChannel of the app's origin.
// Loaded with the page, so this stays small; the rest of signing in loads after.

/** The channel the sign-in window's pages and the app speak on (static/sign-in.js and oauth-callback.js name it too). */
export const SIGN_IN_CHANNEL = 'palimpsest-sign-in';

/**
 * Opens the sign-in window, known by `windowId` on the channel. Without an opener, window.open
 * gives null whether or not a window opened: the window's page says on the channel that it did.
 */
export function openSignInWindow(windowId: string): void {
	window.open(`/sign-in.html#${encodeURIComponent(windowId)}`, '_blank', 'popup,noopener,width=520,height=720');
}
