// How the page reads the context's answer to each of its questions: the value is already
// plain data within the message bound (read-context-message.ts); these check its shape.
import { MAX_REGISTRATIONS } from '../plugin-budgets';
import { readManifest } from '../read-plugin-module';
import { readRecord } from './read-context-message';
import { IGNORED_TYPES, type HistoryAnswer, type IgnoredValue, type LoadAnswer, type RegistrationRecord } from './wire-protocol';

export function readLoadAnswer(value: unknown): LoadAnswer {
	if (!isRecord(value)) throw new TypeError('the load answer is not an object');
	return { manifest: readManifest(value.manifest) };
}

export function readRecords(value: unknown): RegistrationRecord[] {
	if (!Array.isArray(value)) throw new TypeError('the registrations are not a list');
	if (value.length > MAX_REGISTRATIONS) throw new RangeError(`more than ${MAX_REGISTRATIONS} registrations`);
	return value.map(readRecord);
}

export function readTrue(value: unknown): true {
	if (value !== true) throw new TypeError('a ping answered with something other than true');
	return true;
}

/** An observer's value: only its type, or nothing. */
export function readIgnored(value: unknown): IgnoredValue | undefined {
	if (value === undefined) return undefined;
	if (isRecord(value) && typeof value.ignored === 'string' && IGNORED_TYPES.has(value.ignored)) return { ignored: value.ignored as IgnoredValue['ignored'] };
	throw new TypeError("an observer's answer that is not its value's type");
}

/** Any value: the bus's choke point copies and reads it as for a plugin in the page. */
export function readValue(value: unknown): unknown {
	return value;
}

export function readHistoryAnswer(value: unknown): HistoryAnswer {
	if (!isRecord(value)) throw new TypeError('a hook answer that is not an object');
	if (value.resend === true) return { resend: true };
	if (!('value' in value)) throw new TypeError('a hook answer without a value');
	return { value: value.value };
}

function isRecord(value: unknown): value is Record<string, unknown> {
	return typeof value === 'object' && value !== null && !Array.isArray(value);
}
