// Where a message sits in its session on every device, with no server to hand out numbers: a
// hybrid-clock ULID. Pure; the same rule runs on every device, so every device sorts alike.

/** Crockford's base32, in ascending order, so positions compare as plain strings. */
const ALPHABET = '0123456789ABCDEFGHJKMNPQRSTVWXYZ';
const LENGTH = 26;
const TIME_BITS = 48n;
const RANDOM_BITS = 80n;
const RANDOM_MASK = (1n << RANDOM_BITS) - 1n;
/** The largest time a position holds (ms since the epoch, in the year 10889). */
export const MAX_POSITION_TIME = 2 ** 48 - 1;
/**
 * Within one millisecond a position steps by a random amount up to 2^40, not by 1: two devices
 * that saw the same last position and write in the same millisecond then almost never collide.
 */
const STEP_BYTES = 5;
const PATTERN = /^[0-7][0-9A-HJKMNP-TV-Z]{25}$/;

/** `count` random bytes (crypto.getRandomValues in the app; a seeded source in tests). */
export type RandomBytes = (count: number) => Uint8Array;

export const cryptoRandom: RandomBytes = (count) => crypto.getRandomValues(new Uint8Array(count));

/** Whether `value` is a position: 26 characters of Crockford base32 within 128 bits. */
export function isPosition(value: unknown): value is string {
	return typeof value === 'string' && PATTERN.test(value);
}

function decode(position: string): bigint {
	let value = 0n;
	for (const char of position) value = (value << 5n) | BigInt(ALPHABET.indexOf(char));
	return value;
}

function encode(value: bigint): string {
	let text = '';
	for (let i = 0; i < LENGTH; i++) {
		text = ALPHABET[Number(value & 31n)] + text;
		value >>= 5n;
	}
	return text;
}

function readBytes(random: RandomBytes, count: number): bigint {
	const bytes = random(count);
	if (bytes.length !== count) throw new Error(`The random source gave ${bytes.length} bytes, not ${count}.`);
	let value = 0n;
	for (const byte of bytes) value = (value << 8n) | BigInt(byte);
	return value;
}

/** The time part of a position: ms since the epoch. */
export function positionTime(position: string): number {
	if (!isPosition(position)) throw new Error(`Not a position: ${JSON.stringify(position)}.`);
	return Number(decode(position) >> RANDOM_BITS);
}

/**
 * The position of a new message: at `now` when that is past the time of `lastSeen` (the
 * greatest position this device has seen in the session), else a random step past `lastSeen`.
 * So it sorts after everything the device had seen, even when the device's clock is behind
 * another's, and its time part still follows the wall clock whenever the clock is ahead.
 */
export function nextPosition(lastSeen: string | undefined, now: number, random: RandomBytes): string {
	if (!Number.isInteger(now) || now < 0 || now > MAX_POSITION_TIME) throw new Error(`Not a time a position holds: ${now}.`);
	if (lastSeen !== undefined && !isPosition(lastSeen)) throw new Error(`Not a position: ${JSON.stringify(lastSeen)}.`);
	const last = lastSeen === undefined ? -1n : decode(lastSeen);
	if (BigInt(now) > last >> RANDOM_BITS) return encode((BigInt(now) << RANDOM_BITS) | (readBytes(random, 10) & RANDOM_MASK));
	// A carry out of the random part moves the time on by a millisecond, as "one past" means.
	const next = last + 1n + readBytes(random, STEP_BYTES);
	if (next >> (TIME_BITS + RANDOM_BITS) !== 0n) throw new Error('No position is left after the last one seen.');
	return encode(next);
}
