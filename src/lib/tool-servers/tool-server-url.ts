// A tool server's address as the user typed it in Settings, checked before it is stored.
import { isSecureUrl } from './secure-url';

/** A tool server's address as given: https, or http on this computer, with what is wrong said plainly. */
export function readServerUrl(input: string): string {
	let url: URL;
	try {
		url = new URL(input.trim());
	} catch {
		throw new Error('Enter the tool server’s full address, such as https://tools.example.com/mcp.');
	}
	if (!isSecureUrl(url)) throw new Error('A tool server’s address starts with https:// (http:// only for one on this computer: localhost, 127.0.0.1 or [::1]).');
	if (url.username || url.password) throw new Error('Put no user name or password in the address: give them in Authorization instead.');
	return url.href;
}
