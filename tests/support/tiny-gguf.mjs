// Writes a tiny llama-architecture GGUF model (about 400 KB) that llama.cpp loads and runs:
// random weights from a fixed seed, a real SentencePiece-style vocabulary (control tokens,
// all 256 byte tokens, a few dozen words) and, unless asked otherwise, a ChatML chat template.
// Its answers are a stream of those words. Only word tokens have output weights, so the end
// tokens and byte tokens are never sampled: an answer runs until its token limit, which is
// what the browser tests and the benchmark need (a long, steady stream to stop or time).
// Run: node tests/support/tiny-gguf.mjs <out.gguf> [--no-template] [--split] [--ends]
import { writeFile } from 'node:fs/promises';
import { pathToFileURL } from 'node:url';

export const TINY_WORDS = [
	'river', 'stone', 'light', 'green', 'cloud', 'quiet', 'paper', 'north', 'bread', 'water',
	'field', 'house', 'maple', 'amber', 'cedar', 'delta', 'ember', 'frost', 'grove', 'harbor',
	'island', 'jasper', 'kettle', 'lantern', 'meadow', 'nectar', 'orchard', 'pebble', 'quartz', 'reef',
	'saddle', 'timber', 'umbra', 'valley', 'willow', 'yarrow', 'zephyr', 'bridge', 'candle', 'garden'
];

export const CHATML_TEMPLATE =
	"{% for message in messages %}{{'<|im_start|>' + message['role'] + '\\n' + message['content'] + '<|im_end|>' + '\\n'}}{% endfor %}{% if add_generation_prompt %}{{ '<|im_start|>assistant\\n' }}{% endif %}";

export const TINY_CONTEXT = 8192;

/**
 * The end token's weight on the constant dimension of a model that `ends`, tuned by trying: at
 * 3 its answers stop after 5 to 110 tokens whatever the prompt (at 2 most ran to their limit,
 * at 4 most stopped after one token).
 */
const END_WEIGHT = 3;

const T = { u32: 4, i32: 5, f32: 6, bool: 7, string: 8, array: 9, u16: 2 };
const ALIGN = 32;

/**
 * A small deterministic PRNG (mulberry32) and normal samples from it.
 * @param {number} seed
 */
function random(seed) {
	let a = seed >>> 0;
	const uniform = () => {
		a = (a + 0x6d2b79f5) >>> 0;
		let t = a;
		t = Math.imul(t ^ (t >>> 15), t | 1);
		t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
		return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
	};
	return () => Math.sqrt(-2 * Math.log(uniform() || 1e-9)) * Math.cos(2 * Math.PI * uniform());
}

/** @typedef {'u32' | 'i32' | 'f32' | 'bool' | 'string' | 'array' | 'u16'} ValueType */
/** @typedef {[string, ValueType, unknown, ValueType?]} Entry */
/** @typedef {[string, number[], Float32Array]} Tensor */

class Bytes {
	/** @type {Buffer[]} */
	parts = [];
	length = 0;
	/** @param {Buffer} buffer */
	push(buffer) {
		this.parts.push(buffer);
		this.length += buffer.length;
	}
	/** @param {number} v */
	u16(v) { const b = Buffer.alloc(2); b.writeUInt16LE(v); this.push(b); }
	/** @param {number} v */
	u32(v) { const b = Buffer.alloc(4); b.writeUInt32LE(v); this.push(b); }
	/** @param {number} v */
	i32(v) { const b = Buffer.alloc(4); b.writeInt32LE(v); this.push(b); }
	/** @param {number} v */
	u64(v) { const b = Buffer.alloc(8); b.writeBigUInt64LE(BigInt(v)); this.push(b); }
	/** @param {number} v */
	f32(v) { const b = Buffer.alloc(4); b.writeFloatLE(v); this.push(b); }
	/** @param {string} s */
	str(s) { const b = Buffer.from(s, 'utf8'); this.u64(b.length); this.push(b); }
	pad() { const extra = (ALIGN - (this.length % ALIGN)) % ALIGN; if (extra) this.push(Buffer.alloc(extra)); }
	concat() { return Buffer.concat(this.parts); }
}

/**
 * One metadata value: a scalar, or an array of `elementType`.
 * @param {Bytes} out @param {ValueType} type @param {unknown} value @param {ValueType} [elementType]
 */
function writeValue(out, type, value, elementType) {
	out.u32(T[type]);
	if (type === 'array' && elementType) {
		const items = /** @type {unknown[]} */ (value);
		out.u32(T[elementType]);
		out.u64(items.length);
		for (const item of items) writeScalar(out, elementType, item);
	} else writeScalar(out, type, value);
}

/** @param {Bytes} out @param {ValueType} type @param {any} value */
function writeScalar(out, type, value) {
	if (type === 'string') out.str(value);
	else if (type === 'u32') out.u32(value);
	else if (type === 'u16') out.u16(value);
	else if (type === 'i32') out.i32(value);
	else if (type === 'f32') out.f32(value);
	else if (type === 'bool') out.push(Buffer.from([value ? 1 : 0]));
	else throw new Error(`no writer for ${type}`);
}

function vocabulary() {
	const tokens = ['<unk>', '<s>', '</s>', '<|im_start|>', '<|im_end|>'];
	const types = [2, 3, 3, 3, 3];
	for (let i = 0; i < 256; i++) {
		tokens.push(`<0x${i.toString(16).toUpperCase().padStart(2, '0')}>`);
		types.push(6);
	}
	const firstWord = tokens.length;
	for (const word of new Set(TINY_WORDS)) {
		tokens.push(`\u2581${word}`);
		types.push(1);
	}
	for (const letter of 'abcdefghijklmnopqrstuvwxyz\u2581') {
		tokens.push(letter);
		types.push(1);
	}
	const scores = tokens.map((_, i) => (i < firstWord ? 0 : -(i - firstWord)));
	return { tokens, types, scores, firstWord, words: new Set(TINY_WORDS).size };
}

/**
 * The model's tensors: [name, dims (ggml order, inner first), values].
 * @param {{ embd: number, ff: number, layers: number }} shape
 * @param {ReturnType<typeof vocabulary>} vocab
 * @param {number} seed
 * @param {boolean} [ends]
 * @returns {Tensor[]}
 */
function tensors(shape, vocab, seed, ends = false) {
	const normal = random(seed);
	const { embd, ff, layers } = shape;
	const n = vocab.tokens.length;
	/** @param {number} count @param {number} scale */
	const fill = (count, scale) => Float32Array.from({ length: count }, () => normal() * scale);
	/** @param {number} count */
	const ones = (count) => new Float32Array(count).fill(1);
	// Only word rows of the output matrix are non-zero: other tokens keep a logit of 0, far below
	// the words' (about ±8), so sampling never picks an end token or a lone byte.
	const output = new Float32Array(embd * n);
	for (let t = vocab.firstWord; t < vocab.firstWord + vocab.words; t++) {
		for (let i = 0; i < embd; i++) output[t * embd + i] = normal();
	}
	// A model that `ends` keeps one dimension of its hidden state large and nearly constant
	// (every token's embedding has 10 there), which no word reads and the end token's row reads
	// alone: the end token then scores about as high as the best word at every step, so answers
	// stop after a few words whatever the prompt, as a real model's do.
	const embedding = fill(embd * n, 0.5);
	if (ends) {
		for (let t = 0; t < n; t++) embedding[t * embd] = 10;
		for (let t = vocab.firstWord; t < vocab.firstWord + vocab.words; t++) output[t * embd] = 0;
		output[2 * embd] = END_WEIGHT;
	}
	/** @type {Tensor[]} */
	const list = [
		['token_embd.weight', [embd, n], embedding],
		['output_norm.weight', [embd], ones(embd)],
		['output.weight', [embd, n], output]
	];
	for (let b = 0; b < layers; b++) {
		const s = 1 / Math.sqrt(embd);
		list.push(
			[`blk.${b}.attn_norm.weight`, [embd], ones(embd)],
			[`blk.${b}.attn_q.weight`, [embd, embd], fill(embd * embd, s)],
			[`blk.${b}.attn_k.weight`, [embd, embd], fill(embd * embd, s)],
			[`blk.${b}.attn_v.weight`, [embd, embd], fill(embd * embd, s)],
			[`blk.${b}.attn_output.weight`, [embd, embd], fill(embd * embd, s)],
			[`blk.${b}.ffn_norm.weight`, [embd], ones(embd)],
			[`blk.${b}.ffn_gate.weight`, [embd, ff], fill(embd * ff, s)],
			[`blk.${b}.ffn_up.weight`, [embd, ff], fill(embd * ff, s)],
			[`blk.${b}.ffn_down.weight`, [ff, embd], fill(embd * ff, 1 / Math.sqrt(ff))]
		);
	}
	return list;
}

/**
 * One GGUF file from its metadata entries and tensors.
 * @param {Entry[]} metadata @param {Tensor[]} list
 */
function writeFileBytes(metadata, list) {
	const out = new Bytes();
	out.push(Buffer.from('GGUF', 'ascii'));
	out.u32(3);
	out.u64(list.length);
	out.u64(metadata.length);
	for (const [key, type, value, elementType] of metadata) {
		out.str(key);
		writeValue(out, type, value, elementType);
	}
	let offset = 0;
	for (const [name, dims, values] of list) {
		out.str(name);
		out.u32(dims.length);
		for (const d of dims) out.u64(d);
		out.u32(0); // F32
		out.u64(offset);
		offset += Math.ceil(values.byteLength / ALIGN) * ALIGN;
	}
	out.pad();
	for (const [, , values] of list) {
		out.push(Buffer.from(values.buffer, values.byteOffset, values.byteLength));
		out.pad();
	}
	return new Uint8Array(out.concat());
}

/**
 * The model as one GGUF file, or as `split` shards in llama.cpp's gguf-split layout (the first
 * shard holds every metadata key, each shard some of the tensors).
 * `ends`: the model says it is done after a few words (by default it writes until its limit).
 * @param {{ template?: boolean, name?: string, split?: number, seed?: number, context?: number, ends?: boolean }} [options]
 * @returns {Uint8Array[]}
 */
export function tinyGguf({ template = true, name = 'Tiny Test Model', split = 1, seed = 1234, context = TINY_CONTEXT, ends = false } = {}) {
	const shape = { embd: 64, ff: 128, layers: 2, heads: 4 };
	const vocab = vocabulary();
	/** @type {Entry[]} */
	const metadata = [
		['general.architecture', 'string', 'llama'],
		['general.name', 'string', name],
		['general.file_type', 'u32', 0],
		['llama.context_length', 'u32', context],
		['llama.embedding_length', 'u32', shape.embd],
		['llama.block_count', 'u32', shape.layers],
		['llama.feed_forward_length', 'u32', shape.ff],
		['llama.attention.head_count', 'u32', shape.heads],
		['llama.attention.head_count_kv', 'u32', shape.heads],
		['llama.attention.layer_norm_rms_epsilon', 'f32', 1e-5],
		['llama.rope.dimension_count', 'u32', shape.embd / shape.heads],
		['tokenizer.ggml.model', 'string', 'llama'],
		['tokenizer.ggml.tokens', 'array', vocab.tokens, 'string'],
		['tokenizer.ggml.scores', 'array', vocab.scores, 'f32'],
		['tokenizer.ggml.token_type', 'array', vocab.types, 'i32'],
		['tokenizer.ggml.unknown_token_id', 'u32', 0],
		['tokenizer.ggml.bos_token_id', 'u32', 1],
		['tokenizer.ggml.eos_token_id', 'u32', 2],
		['tokenizer.ggml.add_bos_token', 'bool', true],
	];
	if (template) metadata.push(['tokenizer.chat_template', 'string', CHATML_TEMPLATE]);
	const list = tensors(shape, vocab, seed, ends);
	if (split <= 1) return [writeFileBytes(metadata, list)];
	const per = Math.ceil(list.length / split);
	return Array.from({ length: split }, (_, i) => {
		/** @type {Entry[]} */
		const keys = [
			['split.no', 'u16', i],
			['split.count', 'u16', split],
			['split.tensors.count', 'i32', list.length]
		];
		return writeFileBytes(i === 0 ? [...metadata, ...keys] : keys, list.slice(i * per, (i + 1) * per));
	});
}

/**
 * The names llama.cpp's gguf-split gives the shards of `base`.
 * @param {string} base @param {number} count
 */
export function shardNames(base, count) {
	if (count <= 1) return [`${base}.gguf`];
	/** @param {number} n */
	const pad = (n) => String(n).padStart(5, '0');
	return Array.from({ length: count }, (_, i) => `${base}-${pad(i + 1)}-of-${pad(count)}.gguf`);
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
	const out = process.argv[2] ?? 'tiny.gguf';
	const split = process.argv.includes('--split') ? 2 : 1;
	const files = tinyGguf({ template: !process.argv.includes('--no-template'), split, ends: process.argv.includes('--ends') });
	const names = split > 1 ? shardNames(out.replace(/\.gguf$/, ''), split) : [out];
	for (let i = 0; i < files.length; i++) await writeFile(names[i], files[i]);
	console.log(`Wrote ${names.join(', ')} (${files.reduce((sum, f) => sum + f.length, 0).toLocaleString('en')} bytes)`);
}
