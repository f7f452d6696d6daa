// Checks for the JSON a provider sends, frame by frame: a well-formed but unexpected frame
// (`data: null`, a number, `choices` that is not a list) becomes one clear ProviderError
// instead of a TypeError from deep inside a decoder.

import { ProviderError } from './types';

export function isRecord(value: unknown): value is Record<string, unknown> {
	return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** Absent (`undefined` or `null`), or passes `check`. */
export function optional(value: unknown, check: (value: unknown) => boolean): boolean {
	return value === undefined || value === null || check(value);
}

export const isString = (value: unknown): value is string => typeof value === 'string';
export const isNumber = (value: unknown): value is number => typeof value === 'number' && Number.isFinite(value);

/** A list whose every item passes `check`. */
export function listOf(check: (value: unknown) => boolean): (value: unknown) => boolean {
	return (value) => Array.isArray(value) && value.every(check);
}

export function excerpt(text: string, max = 120): string {
	return text.length > max ? `${text.slice(0, max)}…` : text;
}

export function unexpectedEvent(data: string): ProviderError {
	return new ProviderError(`The provider sent an unexpected event: ${excerpt(data)}`, { kind: 'malformed' });
}

export function unexpectedReply(value: unknown): ProviderError {
	let text: string;
	try {
		text = JSON.stringify(value) ?? String(value);
	} catch {
		text = String(value);
	}
	return new ProviderError(`The provider sent an unexpected response: ${excerpt(text)}`, { kind: 'malformed' });
}

/** Parses one frame's JSON; `what` names the frame in the error ("a data line", "an event"). */
export function parseFrame(data: string, what: string): unknown {
	try {
		return JSON.parse(data);
	} catch {
		throw new ProviderError(`Malformed stream: ${what} is not valid JSON: ${excerpt(data)}`, { kind: 'malformed' });
	}
}
