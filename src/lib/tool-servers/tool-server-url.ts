// A tool server's address as the user typed it in Settings, checked before it is stored.

/** A tool server's address as given: http(s) only, with what is wrong said plainly. */
export function readServerUrl(input: string): string {
	let url: URL;
	try {
		url = new URL(input.trim());
	} catch {
		throw new Error('Enter the tool server’s full address, such as https://tools.example.com/mcp.');
	}
	if (url.protocol !== 'https:' && url.protocol !== 'http:') throw new Error('A tool server’s address starts with https:// (or http:// for one on this computer).');
	if (url.username || url.password) throw new Error('Put no user name or password in the address: give them in Authorization instead.');
	return url.href;
}
