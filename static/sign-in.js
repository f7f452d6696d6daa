// The sign-in window's first page. The app opened it without an opener, so neither can reach
// the other: they speak on a BroadcastChannel of the app's origin (the name is the app's
// SIGN_IN_CHANNEL). It says it opened, under the id in its address, until the app answers: with
// the server's sign-in page to go to, with "wait" while the app finds it, or with "stop".
const CHANNEL = 'palimpsest-sign-in';
/** How often the window says it opened while the app has not answered (the app may still be loading its sign-in). */
const REPEAT_MS = 500;
/** How long without an answer before the page says the app is gone. */
const GIVE_UP_MS = 15_000;

const id = decodeURIComponent(location.hash.slice(1));
const status = document.getElementById('status');
const channel = new BroadcastChannel(CHANNEL);
let answered = false;

/** @param {string} text */
function say(text) {
	if (status) status.textContent = text;
}

channel.onmessage = (event) => {
	const data = event.data;
	if (!data || typeof data !== 'object' || data.window !== id) return;
	answered = true;
	if (data.type === 'stop') {
		channel.close();
		say('This sign-in was stopped. Close this window.');
		window.close();
	} else if (data.type === 'go' && typeof data.url === 'string') {
		let url;
		try {
			url = new URL(data.url);
		} catch {
			return;
		}
		// Only a web page: a javascript: or data: address would run on the app's origin.
		if (url.protocol !== 'https:' && url.protocol !== 'http:') return;
		channel.close();
		location.replace(url.href);
	}
};

const started = Date.now();
const announce = () => {
	if (answered) return;
	if (Date.now() - started > GIVE_UP_MS) {
		channel.close();
		say('The Palimpsest page that started this sign-in is gone. Close this window and press Sign in again.');
		return;
	}
	channel.postMessage({ type: 'opened', window: id });
	setTimeout(announce, REPEAT_MS);
};
if (id) announce();
else say('This window was not opened by Palimpsest. Close it.');
