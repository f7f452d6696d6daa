import { describe, expect, it } from 'vitest';
import { describeStartupFailure } from './startup-failure';
import { freshProfileName } from './startup-rescue.svelte';

const error = (name: string, message = '') => Object.assign(new Error(message), { name });
/** Dexie wraps the browser's error: the name that matters can be one level down. */
const wrapped = (inner: Error) => Object.assign(new Error(`OpenFailedError ${inner.message}`), { name: 'OpenFailedError', inner });

describe('why the data could not be opened, and what the page offers', () => {
	it('a newer version: says nothing was changed, offers export, and a fresh start only for a profile', () => {
		const profile = describeStartupFailure(error('VersionError', 'The requested version (40) is less than the existing version (50).'), 'profile', 'default');
		expect(profile).toMatchObject({ kind: 'newer', canExport: true, canStartFresh: true });
		expect(profile.explanation).toContain('Nothing has been changed.');
		expect(describeStartupFailure(error('VersionError'), 'meta', null)).toMatchObject({ kind: 'newer', canExport: true, canStartFresh: false });
	});

	it('a full disk (also as Chromium’s I/O error): free space and reload; starting fresh would not help', () => {
		expect(describeStartupFailure(error('QuotaExceededError'), 'profile', 'p')).toMatchObject({ kind: 'full', canStartFresh: false });
		expect(describeStartupFailure(wrapped(error('UnknownError', 'IO error: …/000003.log: FILE_ERROR_NO_SPACE')), 'profile', 'p')).toMatchObject({
			kind: 'full'
		});
	});

	it('storage switched off (private window, blocked site data): says so, offers nothing that cannot work', () => {
		expect(describeStartupFailure(error('InvalidStateError'), 'meta', null)).toMatchObject({ kind: 'unavailable', canExport: false, canStartFresh: false });
	});

	it('anything else is a damaged database: export what is readable, then start fresh; the browser’s words are kept', () => {
		const failure = describeStartupFailure(wrapped(error('UnknownError', 'Internal error opening backing store for indexedDB.open.')), 'profile', 'p');
		expect(failure).toMatchObject({ kind: 'damaged', canExport: true, canStartFresh: true });
		expect(failure.detail).toContain('Internal error opening backing store');
	});
});

it('a fresh start gets a profile name no other profile has', () => {
	expect(freshProfileName(['Default'])).toBe('Fresh start');
	expect(freshProfileName(['Default', 'fresh START', 'Fresh start 2'])).toBe('Fresh start 3');
});
