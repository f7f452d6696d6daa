// How much context one plugin may add to a turn: the dispatch cuts to it, the hook log and the
// transcript say so.

/** The most characters of context one plugin may add to one turn; the rest is cut, with a note. */
export const MAX_INJECTED_CHARS = 16_000;
