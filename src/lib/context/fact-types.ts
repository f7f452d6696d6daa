// What the fact check reads and finds: the classes of fact, a fact as found, and a row as the
// extractor reads it. Types only.
import type { Role } from '../providers/types';

export type FactClass = 'path' | 'url' | 'identifier' | 'number' | 'email' | 'name' | 'instruction';

export const FACT_CLASSES: readonly FactClass[] = ['path', 'url', 'identifier', 'number', 'email', 'name', 'instruction'];

export interface Fact {
	class: FactClass;
	/** As written in the conversation (what "Add lost facts" appends). */
	text: string;
	/** Its plain form (see normaliseFact), the part a summary must hold. */
	key: string;
	/** The row it was first found in. */
	seq: number;
}

/** A row as the extractor reads it. */
export interface FactSource {
	seq: number;
	role: Role;
	content: string;
	/** An earlier summary the compaction replaces: its facts count too, its headings do not. */
	kind?: 'message' | 'summary';
}

