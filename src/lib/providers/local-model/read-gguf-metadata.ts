// Reads what the app needs from a GGUF model's header (architecture, name, context length,
// chat template, split position) without loading the model. The file is untrusted input: every
// count and length is bounded, arrays are skipped without being held, and a file that is not
// GGUF, or ends inside its header, gets an error that says so.

/** Where the bytes come from: a Blob in the browser, a Uint8Array in tests. */
export interface ByteSource {
	readonly size: number;
	read(offset: number, length: number): Promise<Uint8Array>;
}

export interface GgufMetadata {
	version: number;
	architecture: string;
	name: string | null;
	/** The context length the model was trained for (`<architecture>.context_length`). */
	contextLength: number | null;
	/** The Jinja chat template (`tokenizer.chat_template`), or null when the model has none. */
	chatTemplate: string | null;
	/** For one shard of a split model: its index (0-based) and the number of shards. */
	split: { index: number; count: number } | null;
	tensorCount: number;
}

export class GgufError extends Error {
	constructor(message: string) {
		super(message);
		this.name = 'GgufError';
	}
}

const MAX_KEYS = 100_000;
const MAX_KEY_BYTES = 65_536;
/** Chat templates run to tens of kilobytes; nothing the app reads is longer than this. */
const MAX_STRING_BYTES = 4 * 1024 * 1024;
const MAX_ARRAY_ITEMS = 50_000_000;
const MAX_NESTING = 4;
const CHUNK = 256 * 1024;

/** The bytes of a scalar of each GGUF value type (strings and arrays are read apart). */
const SCALAR_BYTES: Record<number, number> = { 0: 1, 1: 1, 2: 2, 3: 2, 4: 4, 5: 4, 6: 4, 7: 1, 10: 8, 11: 8, 12: 8 };
const STRING = 8;
const ARRAY = 9;

/** A source over bytes held in memory. */
export function bytesSource(bytes: Uint8Array): ByteSource {
	return { size: bytes.length, read: async (offset, length) => bytes.subarray(offset, offset + length) };
}

/** A source over a Blob (a picked file, or one in the Origin Private File System). */
export function blobSource(blob: Blob): ByteSource {
	return { size: blob.size, read: async (offset, length) => new Uint8Array(await blob.slice(offset, offset + length).arrayBuffer()) };
}

/** Reads forward through a source in chunks, so a header of many small fields costs few reads. */
class Cursor {
	#source: ByteSource;
	#chunk: Uint8Array = new Uint8Array(0);
	#chunkAt = 0;
	offset = 0;

	constructor(source: ByteSource) {
		this.#source = source;
	}

	async bytes(length: number): Promise<Uint8Array> {
		if (this.offset + length > this.#source.size) throw new GgufError('The file ends inside its GGUF header: it is incomplete or damaged.');
		const start = this.offset - this.#chunkAt;
		if (start < 0 || start + length > this.#chunk.length) {
			this.#chunkAt = this.offset;
			this.#chunk = await this.#source.read(this.offset, Math.min(Math.max(length, CHUNK), this.#source.size - this.offset));
		}
		const from = this.offset - this.#chunkAt;
		this.offset += length;
		return this.#chunk.subarray(from, from + length);
	}

	async view(length: number): Promise<DataView> {
		const bytes = await this.bytes(length);
		return new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
	}

	async u32(): Promise<number> {
		return (await this.view(4)).getUint32(0, true);
	}

	async u64(): Promise<number> {
		const value = (await this.view(8)).getBigUint64(0, true);
		if (value > BigInt(Number.MAX_SAFE_INTEGER)) throw new GgufError('The GGUF header has a length too large to be real: the file is damaged.');
		return Number(value);
	}

	async string(limit: number): Promise<string> {
		const length = await this.u64();
		if (length > limit) throw new GgufError(`The GGUF header has a text of ${length.toLocaleString('en')} bytes, more than the ${limit.toLocaleString('en')} allowed.`);
		return new TextDecoder().decode(await this.bytes(length));
	}

	skip(length: number): void {
		if (this.offset + length > this.#source.size) throw new GgufError('The file ends inside its GGUF header: it is incomplete or damaged.');
		this.offset += length;
	}
}

type Scalar = number | boolean | string;

/** Reads one value; arrays are walked and skipped (`null`), since no key the app reads is one. */
async function readValue(cursor: Cursor, type: number, depth = 0): Promise<Scalar | null> {
	if (type === STRING) return cursor.string(MAX_STRING_BYTES);
	if (type === ARRAY) {
		if (depth >= MAX_NESTING) throw new GgufError('The GGUF header nests arrays too deeply: the file is damaged.');
		const itemType = await cursor.u32();
		const count = await cursor.u64();
		if (count > MAX_ARRAY_ITEMS) throw new GgufError('The GGUF header has an array too long to be real: the file is damaged.');
		const size = SCALAR_BYTES[itemType];
		if (size !== undefined) cursor.skip(size * count);
		else for (let i = 0; i < count; i++) await skipValue(cursor, itemType, depth + 1);
		return null;
	}
	const size = SCALAR_BYTES[type];
	if (size === undefined) throw new GgufError(`The GGUF header has a value of unknown type ${type}: the file is damaged or newer than this app.`);
	const view = await cursor.view(size);
	switch (type) {
		case 0: return view.getUint8(0);
		case 1: return view.getInt8(0);
		case 2: return view.getUint16(0, true);
		case 3: return view.getInt16(0, true);
		case 4: return view.getUint32(0, true);
		case 5: return view.getInt32(0, true);
		case 6: return view.getFloat32(0, true);
		case 7: return view.getUint8(0) !== 0;
		case 10: return Number(view.getBigUint64(0, true));
		case 11: return Number(view.getBigInt64(0, true));
		default: return view.getFloat64(0, true);
	}
}

async function skipValue(cursor: Cursor, type: number, depth: number): Promise<void> {
	if (type === STRING) cursor.skip(await cursor.u64());
	else await readValue(cursor, type, depth);
}

const positive = (value: Scalar | undefined): number | null =>
	typeof value === 'number' && Number.isInteger(value) && value > 0 ? value : null;

/** Reads the header of a GGUF file (version 2 or 3). */
export async function readGgufMetadata(source: ByteSource): Promise<GgufMetadata> {
	const cursor = new Cursor(source);
	if (source.size < 24) throw new GgufError('This file is too small to be a GGUF model.');
	const magic = new TextDecoder().decode(await cursor.bytes(4));
	if (magic !== 'GGUF') throw new GgufError('This file is not a GGUF model (it does not start with "GGUF").');
	const version = await cursor.u32();
	if (version !== 2 && version !== 3) throw new GgufError(`This is a GGUF file of version ${version}; versions 2 and 3 are supported.`);
	const tensorCount = await cursor.u64();
	const keyCount = await cursor.u64();
	if (keyCount > MAX_KEYS) throw new GgufError('The GGUF header has too many keys to be real: the file is damaged.');
	const values = new Map<string, Scalar>();
	for (let i = 0; i < keyCount; i++) {
		const key = await cursor.string(MAX_KEY_BYTES);
		const value = await readValue(cursor, await cursor.u32());
		if (value !== null) values.set(key, value);
	}
	const text = (key: string) => {
		const value = values.get(key);
		return typeof value === 'string' ? value : null;
	};
	const architecture = text('general.architecture');
	const count = positive(values.get('split.count'));
	const index = values.get('split.no');
	const split = count && count > 1 && typeof index === 'number' ? { index, count } : null;
	// A shard after the first holds only its split keys.
	if (!architecture && !(split && split.index > 0)) throw new GgufError('This GGUF file does not say which model architecture it is (general.architecture).');
	return {
		version,
		architecture: architecture ?? '',
		name: text('general.name'),
		contextLength: architecture ? positive(values.get(`${architecture}.context_length`)) : null,
		chatTemplate: text('tokenizer.chat_template'),
		split,
		tensorCount
	};
}
