// The Sync server field: the address of one CouchDB database, read before anything is stored.

/** The database URL to store (no trailing slash, no fragment); throws a sentence for the form. */
export function readServerUrl(input: string): string {
	let url: URL;
	try {
		url = new URL(input.trim());
	} catch {
		throw new Error('Enter the Sync server as a full address, such as https://couch.example.com/userdb-…');
	}
	if (url.protocol !== 'https:' && url.protocol !== 'http:') throw new Error('The Sync server must be an http:// or https:// address.');
	// Whatever is in the address is stored with the settings: a password must not be.
	if (url.username || url.password) throw new Error('Put the username and password in their own fields, not in the Sync server address.');
	if (url.search) throw new Error('The Sync server address names a database: leave out anything after “?”.');
	const path = url.pathname.replace(/\/+$/, '');
	if (!path) throw new Error('The Sync server address must name a database, such as https://couch.example.com/userdb-…');
	return `${url.origin}${path}`;
}
