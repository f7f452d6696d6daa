// The file of assistants the Assistants page exports and imports: JSON of a format and version of
// its own. An imported file is hostile input: its size is bounded before it is read, its header
// checked, and each assistant read by the rules of read-assistants.ts. Pure.
import type { AssistantRow } from '../db/schema';
import { isPlainObject } from '../sessions/import-schema';
import { readAssistants, type ReadAssistants } from './read-assistants';

export const ASSISTANTS_FORMAT = 'palimpsest-assistants';
/** Raise on any change an older app could misread. */
export const ASSISTANTS_VERSION = 1;
/** 500 assistants of a long system prompt each fit well within it. */
export const MAX_ASSISTANTS_FILE_BYTES = 20 * 1024 * 1024;

/** A file this app cannot read at all: nothing of it is imported. */
export class AssistantsFileError extends Error {
	constructor(message: string) {
		super(message);
		this.name = 'AssistantsFileError';
	}
}

/** The file of `assistants`, exported at `now`. */
export function writeAssistantsFile(assistants: readonly AssistantRow[], now: number): string {
	return `${JSON.stringify({ format: ASSISTANTS_FORMAT, version: ASSISTANTS_VERSION, exported_at: now, assistants }, null, '\t')}\n`;
}

/** The name of the file of a profile's assistants exported at `now`. */
export function assistantsFilename(profile: string, now: number): string {
	return `palimpsest-assistants-${profile}-${new Date(now).toISOString().slice(0, 10)}.json`;
}

/** Refuses a file too large to read, before anything of it is read. */
export function checkAssistantsFileSize(bytes: number): void {
	if (bytes > MAX_ASSISTANTS_FILE_BYTES) throw new AssistantsFileError(`This file is ${(bytes / 1024 / 1024).toFixed(1)} MB; a file of assistants is at most ${MAX_ASSISTANTS_FILE_BYTES / 1024 / 1024} MB.`);
}

/** The assistants of a file's text that fit, the rest counted; throws AssistantsFileError for a file that is not one. */
export function parseAssistantsFile(text: string): ReadAssistants {
	checkAssistantsFileSize(text.length);
	let file: unknown;
	try {
		file = JSON.parse(text);
	} catch {
		throw new AssistantsFileError('This file is not JSON: choose a file of assistants exported from Palimpsest.');
	}
	if (!isPlainObject(file) || file.format !== ASSISTANTS_FORMAT) throw new AssistantsFileError('This file is not a file of assistants: choose one exported from the Assistants page.');
	const version = file.version;
	if (typeof version !== 'number' || !Number.isInteger(version) || version < 1) throw new AssistantsFileError('This file of assistants has no version this app reads.');
	if (version > ASSISTANTS_VERSION) throw new AssistantsFileError(`This file of assistants was written by a newer Palimpsest (version ${version}; this app reads up to ${ASSISTANTS_VERSION}).`);
	return readAssistants(file.assistants);
}
