// Every built-in command name (DESIGN §8). All of them are reserved, including those not
// built yet, so that no plugin takes a name a later built-in needs.
export const BUILTIN_NAMES = ['help', 'new', 'reset', 'compress', 'exit', 'archive', 'title', 'usage'] as const;

export type BuiltinName = (typeof BUILTIN_NAMES)[number];
