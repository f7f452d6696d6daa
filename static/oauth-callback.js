// The sign-in window's last page: hands the server's answer (the authorization code, or its
// refusal) with the sign-in's state to the app page that opened the window, on this origin
// only, and closes. The app checks that the message came from its sign-in window and that the
// state is the one it sent.
const params = new URLSearchParams(location.search);
const answer = { code: params.get('code'), state: params.get('state'), error: params.get('error'), error_description: params.get('error_description') };
const status = document.getElementById('status');
if (window.opener) {
	window.opener.postMessage(answer, location.origin);
	window.close();
} else if (status) {
	status.textContent = 'The Palimpsest page that started this sign-in is gone. Close this window and press Sign in again.';
}
