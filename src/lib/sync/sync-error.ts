// Why a sync request failed, in words for the user: what happened and what to do. `retry` says
// whether trying again later may help on its own; otherwise the user must change something.

export type SyncErrorKind = 'unreachable' | 'login' | 'forbidden' | 'not-found' | 'too-large' | 'server' | 'bad-answer' | 'passphrase';

export class SyncError extends Error {
	constructor(
		readonly kind: SyncErrorKind,
		/** A sentence for the status region. */
		readonly reason: string,
		readonly retry: boolean,
		/** The HTTP status, when the server answered. */
		readonly status?: number
	) {
		super(reason);
		this.name = 'SyncError';
	}
}

export function unreachable(): SyncError {
	return new SyncError(
		'unreachable',
		'Could not reach the sync server: check the connection and the Sync server address, and that the server lets this app’s origin in (CORS). Will retry.',
		true
	);
}

export function tooLarge(maxBytes: number): SyncError {
	return new SyncError('too-large', `The sync server sent more than ${formatBytes(maxBytes)} in one answer; the rest was not read.`, true);
}

export function badAnswer(what: string): SyncError {
	return new SyncError('bad-answer', `The sync server sent an answer this app cannot read (${what}): check that the Sync server address is a CouchDB database.`, true);
}

/** The error for an HTTP status the caller did not expect; `login` when it answered a login. */
export function statusError(status: number, login = false): SyncError {
	if (status === 401 && login) return new SyncError('login', 'The sync server refused the login (401): check the username and password.', false, status);
	if (status === 401) return new SyncError('login', 'The sync server asks for a login (401): enter a username and password.', false, status);
	if (status === 403) return new SyncError('forbidden', 'The sync server refused access to this database (403): check that the user may read and write it.', false, status);
	if (status === 404) return new SyncError('not-found', 'This database does not exist on the sync server (404): press Create database to create it, or check the Sync server address.', false, status);
	if (status === 413) return new SyncError('too-large', 'The sync server refused a request as too large (413): raise its max_http_request_size.', false, status);
	if (status >= 500) return new SyncError('server', `The sync server failed (${status}). Will retry.`, true, status);
	return new SyncError('server', `The sync server answered ${status}, which this app did not expect. Will retry.`, true, status);
}

/** The server would not create the database: it asks for a login (none was given), or this user may not create databases. */
export function createRefused(status: 401 | 403, loggedIn: boolean): SyncError {
	if (status === 401 && !loggedIn) {
		return new SyncError('login', 'The sync server asks for a login to create a database (401): enter the username and password of a user who may create it.', false, status);
	}
	return new SyncError('forbidden', `The sync server does not let this user create databases (${status}): ask its administrator to create it, or use the address of a database that exists.`, false, status);
}

export function formatBytes(bytes: number): string {
	return bytes >= 1024 * 1024 ? `${Math.round((bytes / 1024 / 1024) * 10) / 10} MB` : `${Math.round(bytes / 1024)} KB`;
}
