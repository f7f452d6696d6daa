// The page's reading of a message from a plugin's isolated context: hostile input, parsed into
// one of the kinds the page accepts (wire-protocol.ts), each field checked for type and size,
// before anything reads it. The result is built afresh from the checked fields, so nothing
// else the message carried ever reaches the page's code.
import { checkPlainData, formatBytes, MAX_VALUE_BYTES } from '../../hooks/plain-data';
import { MAX_KEY_CHARS } from '../plugin-budgets';
import type { LogLevel } from '../plugin-log-book';
import type { CommandMeta, ContextMessage, RegistrationRecord, StorageOp, WireError } from './wire-protocol';

/** The most one message may hold: one value of MAX_VALUE_BYTES and its envelope. */
export const MAX_MESSAGE_BYTES = MAX_VALUE_BYTES + 64 * 1024;
const MAX_NAME = 200;
const MAX_TEXT = 4_000;
const MAX_STACK = 8_000;
const MAX_LOG_ARGS = 100;

/** What one message reads as, and about how many bytes it held (as far as they were counted). */
export type Reading = (
	| { message: ContextMessage }
	/** Dropped and counted: not a message the page accepts. */
	| { refused: string }
	/** Over MAX_MESSAGE_BYTES: its runtime would never send it, so the plugin code did. */
	| { oversized: string }
) & { bytes: number };

const LEVELS: ReadonlySet<string> = new Set(['info', 'warn', 'error']);
const OPS: ReadonlySet<string> = new Set(['get', 'set', 'delete', 'keys']);

/** Thrown by the readers here for what the page does not accept. */
export class Refused extends Error {}

export function readContextMessage(data: unknown): Reading {
	// One bounded walk over everything that came, extra fields included: a hostile message
	// costs the page at most MAX_MESSAGE_BYTES of looking.
	const check = checkPlainData(data, { maxBytes: MAX_MESSAGE_BYTES, maxDepth: 80 });
	if (!check.ok) {
		return /^it is over /.test(check.reason)
			? { oversized: `a message over ${formatBytes(MAX_MESSAGE_BYTES)}`, bytes: MAX_MESSAGE_BYTES }
			: { refused: `not plain data: ${check.reason}`, bytes: 0 };
	}
	const bytes = check.bytes;
	if (!isRecord(data)) return { refused: 'not an object', bytes };
	try {
		return { message: readKind(data, bytes), bytes };
	} catch (error) {
		if (error instanceof Refused) return { refused: error.message, bytes };
		throw error;
	}
}

function readKind(data: Record<string, unknown>, bytes: number): ContextMessage {
	switch (data.t) {
		case 'answer':
			return data.ok === true
				? { t: 'answer', id: readId(data.id), ok: true, value: data.value }
				: { t: 'answer', id: readId(data.id), ok: false, error: readError(data.error) };
		case 'register':
			return { t: 'register', id: readId(data.id), record: readRecord(data.record) };
		case 'unregister':
			return { t: 'unregister', handle: readId(data.handle) };
		case 'storage':
			return readStorage(data, bytes);
		case 'log':
			return readLog(data);
		case 'tool-refused':
			return { t: 'tool-refused', reason: readText(data.reason, MAX_TEXT, 'a refusal') };
		default:
			throw new Refused(`an unknown kind of message (${describeKind(data.t)})`);
	}
}

function readId(value: unknown): number {
	if (typeof value !== 'number' || !Number.isSafeInteger(value) || value < 1) throw new Refused('a message without a valid id');
	return value;
}

function readText(value: unknown, max: number, what: string): string {
	if (typeof value !== 'string') throw new Refused(`${what} is not text`);
	return value.length > max ? `${value.slice(0, max - 1)}…` : value;
}

function readName(value: unknown, what: string): string {
	if (typeof value !== 'string' || value.length > MAX_NAME) throw new Refused(`${what} is not a name of at most ${MAX_NAME} characters`);
	return value;
}

function readError(value: unknown): WireError {
	if (!isRecord(value)) return { name: 'Error', message: 'The plugin failed without saying why.' };
	const error: WireError = {
		name: typeof value.name === 'string' ? readText(value.name, MAX_NAME, 'an error name') : 'Error',
		message: typeof value.message === 'string' ? readText(value.message, MAX_TEXT, 'an error message') : 'The plugin failed without saying why.'
	};
	if (typeof value.stack === 'string') error.stack = readText(value.stack, MAX_STACK, 'a stack');
	return error;
}

export function readRecord(value: unknown): RegistrationRecord {
	if (!isRecord(value)) throw new Refused('a registration that is not an object');
	const handle = readId(value.handle);
	switch (value.kind) {
		case 'hook':
			return { kind: 'hook', handle, name: readName(value.name, 'a hook name') };
		case 'command':
			return { kind: 'command', handle, name: readName(value.name, 'a command name'), meta: readMeta(value.meta) };
		case 'tool':
			// Its size is checked by the broker, the rest worded by the tool registry as for a plugin in the page.
			return { kind: 'tool', handle, name: value.name, description: value.description, parameters: value.parameters };
		default:
			throw new Refused(`a registration of an unknown kind (${describeKind(value.kind)})`);
	}
}

function readMeta(value: unknown): CommandMeta {
	if (value === undefined) return {};
	if (!isRecord(value)) throw new Refused('command details that are not an object');
	const meta: CommandMeta = {};
	if (value.description !== undefined) meta.description = readText(value.description, MAX_TEXT, 'a command description');
	if (value.args_hint !== undefined) meta.args_hint = readText(value.args_hint, MAX_NAME, 'a command args hint');
	return meta;
}

function readStorage(data: Record<string, unknown>, bytes: number): ContextMessage {
	const id = readId(data.id);
	if (typeof data.op !== 'string' || !OPS.has(data.op)) throw new Refused('a storage call of an unknown kind');
	const op = data.op as StorageOp;
	// The page's storage words its own refusal of a key that is not text, as for a plugin in the page.
	const key = data.key;
	if (typeof key === 'string' && key.length > MAX_KEY_CHARS) throw new Refused(`a storage key over ${MAX_KEY_CHARS} characters`);
	// A value's size is known from reading its message: what a write costs is not walked twice.
	return op === 'set' ? { t: 'storage', id, op, key, value: data.value, bytes } : { t: 'storage', id, op, key };
}

function readLog(data: Record<string, unknown>): ContextMessage {
	if (typeof data.level !== 'string' || !LEVELS.has(data.level)) throw new Refused('a log line of an unknown level');
	if (!Array.isArray(data.args) || data.args.length > MAX_LOG_ARGS) throw new Refused(`log arguments that are not a list of at most ${MAX_LOG_ARGS}`);
	const dropped = typeof data.dropped === 'number' && Number.isSafeInteger(data.dropped) && data.dropped > 0 ? data.dropped : 0;
	return { t: 'log', level: data.level as LogLevel, args: [...data.args], dropped };
}

function describeKind(value: unknown): string {
	return typeof value === 'string' ? JSON.stringify(value.slice(0, 40)) : typeof value;
}

function isRecord(value: unknown): value is Record<string, unknown> {
	return typeof value === 'object' && value !== null && !Array.isArray(value) && Object.getPrototypeOf(value) === Object.prototype;
}
