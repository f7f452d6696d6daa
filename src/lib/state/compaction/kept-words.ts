// What the messages kept in context hold, in the words /usage and the meter's details share.
import { pinnedTokens } from '../../context/pinned-rows';
import type { MessageRow } from '../../db/schema';

/** "2 messages, 1,234 tokens, which compaction leaves as they are" ('' when none is kept), on the meter's scale. */
export function describeKept(rows: readonly MessageRow[], ratio?: number): string {
	const kept = pinnedTokens(rows, ratio);
	if (!kept.messages) return '';
	const many = kept.messages !== 1;
	return `${kept.messages.toLocaleString('en')} message${many ? 's' : ''}, ${kept.tokens.toLocaleString('en')} tokens, which compaction leaves as ${many ? 'they are' : 'it is'}`;
}
