// Why the app could not open its data, in words a user can act on, and what the failure page
// may offer for each kind: reading out what is readable, and starting fresh.
import { isQuotaError } from '../../db/storage-errors';

export type FailureKind = 'newer' | 'damaged' | 'full' | 'unavailable' | 'blocked';

export interface StartupFailure {
	kind: FailureKind;
	/** The database that failed: the list of profiles, or a profile's sessions. */
	database: 'meta' | 'profile';
	/** The profile whose database failed (null when the list of profiles did: Export then reads the default profile). */
	profile: string | null;
	title: string;
	explanation: string;
	/** The browser's own words, for a bug report. */
	detail: string;
	/** Whether "Export what is readable" can work for this kind. */
	canExport: boolean;
	/** Whether "Start fresh" is offered (never where it could not help, e.g. storage switched off). */
	canStartFresh: boolean;
}

function errorNames(error: unknown): string[] {
	const found: string[] = [];
	for (let e = error as { name?: string; inner?: unknown } | undefined, depth = 0; e && depth < 4; e = e.inner as typeof e, depth++) {
		if (e.name) found.push(e.name);
	}
	return found;
}

function detailOf(error: unknown): string {
	if (error instanceof Error) return `${error.name}: ${error.message}`;
	return String(error);
}

export function describeStartupFailure(error: unknown, database: 'meta' | 'profile', profile: string | null): StartupFailure {
	const names = errorNames(error);
	const message = error instanceof Error ? error.message : String(error);
	const detail = detailOf(error);
	const base = { database, profile, detail };
	const what = database === 'meta' ? 'the list of your profiles' : 'your sessions';
	if (names.includes('VersionError')) {
		return {
			...base,
			kind: 'newer',
			title: 'Your data was saved by a newer version of Palimpsest',
			explanation: `This tab runs an older version of Palimpsest than the one that last saved ${what}, so it cannot use them without risking damage. Reload to get the newer version (close other Palimpsest tabs if it stays old). Nothing has been changed.`,
			canExport: true,
			canStartFresh: database === 'profile'
		};
	}
	if (isQuotaError(error)) {
		return {
			...base,
			kind: 'full',
			title: 'The browser has no room left for Palimpsest’s data',
			explanation: `The browser refused to store data (storage is full), so ${what} could not be opened. Free some disk space, or clear other sites’ data, then reload. Your data is still there.`,
			canExport: true,
			canStartFresh: false
		};
	}
	if (names.some((n) => ['InvalidStateError', 'SecurityError', 'MissingAPIError'].includes(n)) || /not allowed/i.test(message)) {
		return {
			...base,
			kind: 'unavailable',
			title: 'This browser does not let Palimpsest store data here',
			explanation: 'Storage is switched off for this site (a private window, or site data blocked in the browser’s settings), so Palimpsest cannot keep your sessions. Allow site data for this site, or open Palimpsest in a normal window.',
			canExport: false,
			canStartFresh: false
		};
	}
	return {
		...base,
		kind: 'damaged',
		title: 'Palimpsest could not open its data',
		explanation: `The browser could not open ${what}: the data may be damaged. You can save whatever is still readable to a file, then start fresh; a file saved here can be imported later in Settings → Import.`,
		canExport: true,
		canStartFresh: true
	};
}

/** Shown while this tab's upgrade waits for another tab to let go of the database. */
export function blockedFailure(database: 'meta' | 'profile', profile: string | null): StartupFailure {
	return {
		kind: 'blocked',
		database,
		profile,
		detail: '',
		title: 'Waiting for another Palimpsest tab',
		explanation:
			'This version of Palimpsest needs to update how your data is stored, but another tab still has it open with an older version. Close or reload the other Palimpsest tabs; this one continues by itself as soon as they let go. Your data is safe meanwhile; export it from the other tab if you want a copy now.',
		canExport: false,
		canStartFresh: database === 'profile'
	};
}
