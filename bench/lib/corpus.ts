// Deterministic text for the benchmarks: English prose, JSON, CJK and code, alone (a counting
// corpus) or as a conversation with tool calls (a session to count, open and compact). The
// same seed gives the same text in Node and in Chromium, so both count the same thing.
import type { NewMessage } from '../../src/lib/db/message-verbs';
import { seededRandom } from '../../src/lib/providers/offline-essay';

export type TextKind = 'english' | 'json' | 'cjk' | 'code';
export const TEXT_KINDS: readonly TextKind[] = ['english', 'json', 'cjk', 'code'];

/** A small seeded generator (mulberry32): fast, and the same sequence everywhere. */
export const seeded = seededRandom;

type Random = () => number;
const pick = <T>(random: Random, items: readonly T[]): T => items[Math.floor(random() * items.length)];

const SUBJECTS = ['The importer', 'This function', 'The session list', 'Our cache', 'The worker', 'The parser', 'The release build', 'Each request', 'The retry loop', 'The migration'];
const VERBS = ['reads', 'writes', 'validates', 'skips', 'batches', 'retries', 'counts', 'renders', 'rejects', 'streams'];
const OBJECTS = ['every row', 'the stored totals', 'the oldest entries', 'malformed input', 'the token budget', 'three pages at a time', 'the whole transcript', 'the pending writes', 'each header', 'the fallback path'];
const TAILS = [
	'before the transaction commits',
	'so the page never blocks',
	'when the network is down',
	'without touching the index',
	'in about 40 ms on a slow laptop',
	'unless the user cancels',
	'after the first reload',
	'and logs what it dropped'
];
const ASIDES = [
	'We must keep the public API stable.',
	'We decided to keep the old format for one more release.',
	'I implemented the fallback in src/lib/db/import-rows.ts yesterday.',
	'Let us measure it again on the 2-core machine.',
	'See https://example.com/docs/storage-limits for the quota rules.',
	'Never call fetch inside that transaction.',
	'Fixed the off-by-one in `splitForWindow` as well.',
	'Could the estimate drift after a provider switch?',
	'Should the archive keep pinned sessions?',
	'The config lives in config/app.yaml and the schema in schema.json.'
];

const SYLLABLES = ['ka', 'lo', 'mi', 'ren', 'sto', 'va', 'quin', 'bel', 'tor', 'es', 'dra', 'po', 'li', 'nex', 'ur', 'sha'];

/** A made-up name (a project, a person, a host): words the tokenizer's cache has not seen. */
function madeUpName(random: Random): string {
	const word = Array.from({ length: 2 + Math.floor(random() * 3) }, () => pick(random, SYLLABLES)).join('');
	return word[0].toUpperCase() + word.slice(1);
}

function englishSentence(random: Random): string {
	if (random() < 0.2) return pick(random, ASIDES);
	const number = random() < 0.3 ? ` ${Math.floor(random() * 10_000)} times` : '';
	const who = random() < 0.4 ? `${madeUpName(random)} says ` : '';
	return `${who}${pick(random, SUBJECTS)} ${pick(random, VERBS)} ${pick(random, OBJECTS)}${number} ${pick(random, TAILS)}.`;
}

const CJK = [
	'今日は新しいデータベースの設計について話し合いました。',
	'このテストは失敗する可能性があるので、もう一度確認してください。',
	'ユーザーがセッションを削除すると、関連するメッセージもすべて削除されます。',
	'我们需要在明天之前完成这个项目的第一个版本。',
	'这个函数会读取所有的消息，然后计算令牌的数量。',
	'压缩之后，上下文窗口里只剩下摘要和最近的对话。',
	'데이터베이스를 업데이트한 다음 페이지를 다시 불러오세요.',
	'이 기능은 오프라인에서도 작동해야 합니다.'
];
const HANZI = '的一是不了人我在有他这为之大来以个中上们到说国和地也子时道出而要于就下得可你年生自会那后能对着事其里所去行过家十用发天如然作方成者多日都三小军二无同么经法当起与好看学进种将还分此心前面又定见只主没公从';
const KANA = 'あいうえおかきくけこさしすせそたちつてとなにぬねのはひふへほまみむめもやゆよらりるれろわをんアイウエオカキクケコサシスセソタチツテトナニヌネノハヒフヘホマミムメモラリルレロン';
const HANGUL = '가나다라마바사아자차카타파하고노도로모보소오조초코토포호구누두루무부수우주추쿠투푸후기니디리미비시이지치키티피히는을를에서의와과도만';

/** CJK words put together at random: runs the tokenizer has not seen whole before, as in real text. */
function cjkWord(random: Random): string {
	const script = random();
	const alphabet = [...(script < 0.5 ? HANZI : script < 0.8 ? KANA : HANGUL)];
	return Array.from({ length: 2 + Math.floor(random() * 4) }, () => pick(random, alphabet)).join('');
}

function englishText(random: Random, chars: number): string {
	const paragraphs: string[] = [];
	let length = 0;
	while (length < chars) {
		const sentences = Array.from({ length: 3 + Math.floor(random() * 4) }, () => englishSentence(random));
		const paragraph = sentences.join(' ');
		paragraphs.push(paragraph);
		length += paragraph.length + 2;
	}
	return paragraphs.join('\n\n');
}

function cjkText(random: Random, chars: number): string {
	let text = '';
	while (text.length < chars) {
		if (random() < 0.3) text += pick(random, CJK);
		else text += Array.from({ length: 3 + Math.floor(random() * 5) }, () => cjkWord(random)).join(random() < 0.5 ? '' : '、') + pick(random, ['。', '，', '？', '！']);
		if (random() < 0.1) text += '\n';
	}
	return text;
}

const NAMES = ['session', 'row', 'budget', 'summary', 'cursor', 'batch', 'window', 'marker', 'plugin', 'request'];
const ident = (random: Random) => `${pick(random, NAMES)}${pick(random, ['', 'Count', 'Id', 'List', 'State', 'Limit'])}`;

function jsonText(random: Random, chars: number): string {
	const items: unknown[] = [];
	let text = '';
	while (text.length < chars) {
		items.push({
			id: `${pick(random, NAMES)}-${Math.floor(random() * 1e6).toString(36)}`,
			title: englishSentence(random),
			tags: Array.from({ length: 1 + Math.floor(random() * 3) }, () => pick(random, NAMES)),
			score: Math.round(random() * 10_000) / 100,
			active: random() < 0.5,
			updated_at: new Date(1_700_000_000_000 + Math.floor(random() * 1e10)).toISOString(),
			metrics: { reads: Math.floor(random() * 1000), writes: Math.floor(random() * 100), p95_ms: Math.round(random() * 4000) / 10 }
		});
		text = JSON.stringify({ ok: true, count: items.length, items }, null, random() < 0.5 ? 2 : undefined);
	}
	return text;
}

function codeText(random: Random, chars: number): string {
	const blocks: string[] = [];
	let length = 0;
	while (length < chars) {
		const name = random() < 0.5 ? ident(random) : `${pick(random, NAMES)}${madeUpName(random)}`;
		const limit = Math.floor(random() * 500);
		const block =
			random() < 0.6
				? [
						`export async function load${name[0].toUpperCase()}${name.slice(1)}(db: Database, id: string, limit = ${limit}): Promise<Row[]> {`,
						`\tconst rows = await db.table('${pick(random, NAMES)}s').where({ id }).limit(limit).toArray();`,
						`\tif (!rows.length) throw new Error(\`No ${name} for \${id}\`);`,
						`\treturn rows.filter((row) => row.${ident(random)} > ${Math.floor(random() * 100)}).map((row) => ({ ...row, seen: true }));`,
						'}'
					].join('\n')
				: [
						`def ${name}_total(items, threshold=${limit}):`,
						`    """Sum the ${name} values above the threshold."""`,
						`    return sum(item["${ident(random)}"] for item in items if item.get("score", 0) > threshold)`
					].join('\n');
		blocks.push(block);
		length += block.length + 2;
	}
	return blocks.join('\n\n');
}

const WRITERS: Record<TextKind, (random: Random, chars: number) => string> = {
	english: englishText,
	json: jsonText,
	cjk: cjkText,
	code: codeText
};

/** The kind of the text at `index` of a corpus: the four kinds take turns. */
export const kindOf = (index: number): TextKind => TEXT_KINDS[index % TEXT_KINDS.length];

/** `count` texts of about `chars` characters each, the four kinds in turn. */
export function corpusTexts(count: number, chars = 2048, seed = 1): string[] {
	const random = seeded(seed);
	return Array.from({ length: count }, (_, i) => WRITERS[kindOf(i)](random, chars));
}

/** A message of exactly `chars` characters of English prose. */
export function englishMessage(seed: number, chars = 2048): string {
	return englishText(seeded(seed), chars).slice(0, chars);
}

/** A message of exactly `chars` characters of mixed text (all four kinds), as a user might paste it. */
export function mixedMessage(seed: number, chars = 2048): string {
	const random = seeded(seed);
	const quarter = Math.floor(chars / 4);
	return [englishText(random, quarter), '```json\n' + jsonText(random, quarter) + '\n```', cjkText(random, quarter), '```ts\n' + codeText(random, quarter) + '\n```']
		.join('\n\n')
		.slice(0, chars);
}

/**
 * An endless conversation: a user asks, the assistant answers in prose with code, JSON or
 * CJK, and every third exchange calls a tool whose output is JSON. Rows as appendMessages
 * takes them (no seq, no counts).
 */
export function* conversation(seed = 7, at = 1_700_000_000_000): Generator<NewMessage> {
	const random = seeded(seed);
	for (let turn = 0; ; turn++) {
		const base = { kind: 'message' as const, status: 'complete' as const, created_at: at + turn * 60_000 };
		yield { ...base, id: `u${turn}`, role: 'user', content: `${englishText(random, 300)}${random() < 0.3 ? `\n\n${cjkText(random, 120)}` : ''}` };
		if (turn % 3 === 2) {
			const call = { id: `call-${turn}`, name: 'search_docs', arguments: JSON.stringify({ query: englishSentence(random), limit: 10 }) };
			yield { ...base, id: `c${turn}`, role: 'assistant', content: '', tool_calls: [call] };
			yield { ...base, id: `t${turn}`, role: 'tool', content: jsonText(random, 1600), tool_call_id: call.id };
		}
		const extra = pick(random, ['code', 'json', 'cjk'] as const);
		const body = extra === 'code' ? '```ts\n' + codeText(random, 600) + '\n```' : extra === 'json' ? '```json\n' + jsonText(random, 500) + '\n```' : cjkText(random, 300);
		yield { ...base, id: `a${turn}`, role: 'assistant', content: `${englishText(random, 900)}\n\n${body}` };
	}
}
