// Profile ids and names. The id is stable for the life of a profile: it names the profile's
// database (`palimpsest-<id>`), appears in session keys (`web:<id>:…`) and in every hook
// payload's `profile`. The display name is what the user sees and may change at any time.
import { DEFAULT_PROFILE } from './meta-db';

/** Ids no profile may take: `meta` would name the meta database itself (`palimpsest-meta`). */
export const RESERVED_PROFILE_IDS: ReadonlySet<string> = new Set(['meta']);

const MAX_ID_LENGTH = 32;
export const MAX_PROFILE_NAME_LENGTH = 60;

/** What the user sees for a profile. The root profile is "Default" until renamed. */
export function profileLabel(row: { name: string; display_name?: string }): string {
	return row.display_name || (row.name === DEFAULT_PROFILE ? 'Default' : row.name);
}

/**
 * A new profile's id, from its display name: lower-case letters, digits and dashes (so it is
 * safe in database names, lock names and `web:<id>:<session>` keys), never a reserved id and
 * never one in `taken`.
 */
export function profileIdFor(displayName: string, taken: Iterable<string>): string {
	const used = new Set(taken);
	const base =
		displayName
			.normalize('NFKD')
			.replace(/\p{M}+/gu, '')
			.toLowerCase()
			.replace(/[^a-z0-9]+/g, '-')
			.replace(/^-+|-+$/g, '')
			.slice(0, MAX_ID_LENGTH)
			.replace(/-+$/, '') || 'profile';
	const free = (id: string) => !used.has(id) && !RESERVED_PROFILE_IDS.has(id) && id !== DEFAULT_PROFILE;
	if (free(base)) return base;
	for (let n = 2; ; n++) {
		const id = `${base}-${n}`;
		if (free(id)) return id;
	}
}

/**
 * The trimmed display name, or an error message: names are required, short, and distinct
 * from the other profiles' (ignoring case), so the Profile list never shows two alike.
 */
export function checkProfileName(
	input: string,
	others: Iterable<{ name: string; display_name?: string }>
): { name: string } | { error: string } {
	const name = input.replace(/\s+/g, ' ').trim();
	if (!name) return { error: 'A profile needs a name.' };
	if (name.length > MAX_PROFILE_NAME_LENGTH) return { error: `A profile name can be at most ${MAX_PROFILE_NAME_LENGTH} characters.` };
	for (const other of others) {
		if (profileLabel(other).toLocaleLowerCase() === name.toLocaleLowerCase()) {
			return { error: `There is already a profile named “${profileLabel(other)}”.` };
		}
	}
	return { name };
}
