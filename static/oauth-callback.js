// The sign-in window's last page: hands the server's answer (the authorization code and the
// issuer it named, or its refusal) with the sign-in's state to the app, on the app's own
// BroadcastChannel (the window has no opener; the name is the app's SIGN_IN_CHANNEL), and closes
// once the app says it took it. The app takes only an answer with a state it is waiting for.
const CHANNEL = 'palimpsest-sign-in';
/** How long the app has to say it took the answer. */
const TAKEN_WITHIN_MS = 5_000;

const params = new URLSearchParams(location.search);
const state = params.get('state');
/** @type {Record<string, string>} */
const answer = {};
for (const key of ['code', 'state', 'iss', 'error', 'error_description']) {
	const value = params.get(key);
	if (value !== null) answer[key] = value;
}
const status = document.getElementById('status');
const channel = new BroadcastChannel(CHANNEL);
const gone = setTimeout(() => {
	channel.close();
	if (status) status.textContent = 'The Palimpsest page that started this sign-in is gone. Close this window and press Sign in again.';
}, TAKEN_WITHIN_MS);
channel.onmessage = (event) => {
	const data = event.data;
	if (!data || data.type !== 'taken' || data.state !== state) return;
	clearTimeout(gone);
	channel.close();
	window.close();
};
channel.postMessage(answer);
