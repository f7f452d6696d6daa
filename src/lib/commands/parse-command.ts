// Slash-command syntax: "/name raw args". Pure.
import { editDistance, isCloseEnough } from '../hooks/closest-name';

export const COMMAND_NAME = /^[a-z0-9][a-z0-9_-]{0,39}$/;

export interface ParsedCommand {
	name: string;
	args: string;
}

/** The command in a message, or null when the message is not a command ("/ x", "//x", text). */
export function parseCommand(text: string): ParsedCommand | null {
	const match = /^\/([A-Za-z0-9][A-Za-z0-9_-]*)(?:\s+([\s\S]*))?$/.exec(text.trim());
	if (!match) return null;
	return { name: match[1].toLowerCase(), args: (match[2] ?? '').trim() };
}

/** Names that start like `name` or are a couple of edits away, best first. */
export function closeMatches(name: string, names: readonly string[], limit = 3): string[] {
	return names
		.map((candidate) => ({
			candidate,
			score: candidate.startsWith(name) || name.startsWith(candidate) ? 0 : editDistance(name, candidate)
		}))
		.filter(({ score }) => isCloseEnough(name, score))
		.sort((a, b) => a.score - b.score || a.candidate.localeCompare(b.candidate))
		.slice(0, limit)
		.map(({ candidate }) => candidate);
}
