// Lets a race test act at the worst moment of a deletion, archive or sweep: right after it read
// the family of sessions it plans from, before it writes. A test file replaces read-family.ts
// with `pausingReadFamily` through vi.mock, then sets `afterFamilyRead.hook`.
import type * as ReadFamily from './read-family';

/** Runs once, right after the next family read: another tab commits then. */
export const afterFamilyRead = { hook: null as null | (() => Promise<void>) };

/** read-family.ts as it is, but running `afterFamilyRead.hook` (once) after a read. */
export function pausingReadFamily(actual: typeof ReadFamily): typeof ReadFamily {
	return {
		readFamily: async (...args) => {
			const family = await actual.readFamily(...args);
			const hook = afterFamilyRead.hook;
			afterFamilyRead.hook = null;
			await hook?.();
			return family;
		}
	};
}
