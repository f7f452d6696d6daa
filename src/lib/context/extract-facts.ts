// The facts a later answer may need, drawn from the rows a compaction replaces: file paths,
// URLs, code identifiers (in backticks, called, or written camelCase or snake_case), numbers
// with their unit or role (ports, versions, amounts, dates), e-mail addresses, names of people
// and things, and the user's explicit instructions. No model call: patterns only, linear in the
// text, so the worker checks a 100,000-token span in milliseconds. Pure.
import { contentWords, normaliseFact as normaliseText } from './normalise-fact';
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

/** Enough for any conversation; past this a span's facts are not all checked (the count says so). */
export const MAX_FACTS = 2_000;
const MAX_ROW_CHARS = 200_000;
const MAX_TOOL_CHARS = 20_000;
const MAX_FACT_CHARS = 240;

const MONTH = '(?:January|February|March|April|May|June|July|August|September|October|November|December|Jan|Feb|Mar|Apr|Jun|Jul|Aug|Sept?|Oct|Nov|Dec)\\.?';
const WEEKDAY = '(?:(?:Mon|Tues|Wednes|Thurs|Fri|Satur|Sun)day,?\\s+)?';
const ORDINAL = '\\d{1,2}(?:st|nd|rd|th)?';
const UNITS =
	'%|percentage points?|percent|ms|milliseconds?|s|secs?|seconds?|mins?|minutes?|h|hrs?|hours?|days?|weeks?|months?|years?|kb|mb|gb|tb|kib|mib|gib|px|rem|mg|mcg|µg|g|kg|lbs?|ml|l|km²|m²|m³|cm²|cm³|ft²|ft³|km|m|cm|mm|miles?|°c|°f|bpm|mmhg|rpm|fps|hz|khz|mhz|ghz|kw|kwh|x|×|tokens|requests|req/s|rps|qps|users|nights?|people|persons?|guests|adults|children|tablets?|pills?|doses?|units|cores|threads|replicas|retries|attempts|pages?|rows?|lines?|characters|words|euros?|dollars?|pounds|francs|thousand|million|billion|bn';
const ROLES =
	'port|line|version|room|gate|seat|flight|order|invoice|account|ticket|booking|confirmation|reference|ref|pr|issue|build|floor|platform|terminal|case|policy|article|clause|section|batch|step|chapter|page|pid|id|code|pin|zip|postcode|extension|apartment|apt|suite|bus|train|route|release|sprint|node|python|java|postgres|postgresql|redis|ruby|php|ios|android|net|phase|stage|round|reviewer|part|patient|customer|serial|channel|day|week';

/** Whether a text names a month at all (the date patterns are read only then). */
const HAS_MONTH = /Jan|Feb|Ma[ry]|Apr|Ju[nl]|Aug|Sep|Oct|Nov|Dec/;

/** Number-like facts, most specific first: each claims its text before the next looks (only in a text holding the character given). */
const NUMBER_PATTERNS: Array<[RegExp, (string | RegExp)?]> = [
	[/\b\d{4}-\d{2}-\d{2}(?:[T ]\d{2}:\d{2}(?::\d{2})?Z?)?\b/g, '-'],
	[new RegExp(`\\b${WEEKDAY}(?:${ORDINAL}\\s+(?:of\\s+)?${MONTH}(?:,?\\s+\\d{4})?|${MONTH}\\s+${ORDINAL}(?:,?\\s+\\d{4})?|${MONTH}\\s+\\d{4})\\b`, 'g'), HAS_MONTH],
	[/\b\d{1,2}[/.]\d{1,2}[/.]\d{2,4}\b/g],
	[/(?:[$€£¥]|\b(?:USD|EUR|GBP|CHF|JPY|CAD|AUD)\s?)\d[\d,]*(?:\.\d+)?(?:\s?(?:k|m|bn|million|billion)\b)?/g, /[$€£¥]|USD|EUR|GBP|CHF|JPY|CAD|AUD/],
	[/\+\d[\d ().-]{7,}\d/g, '+'],
	[/\bv?\d+\.\d+\.\d+(?:[-+][\w.]+)?\b|\bv\d+(?:\.\d+)?\b/g],
	[/\b\d{1,2}:\d{2}(?:\s?[ap]\.?m\.?)?(?![\w:])|\b\d{1,2}\s?[ap]\.?m\.?(?!\w)/gi],
	[new RegExp(`\\b(?:${ROLES})\\s*(?:no\\.?|number|#)?\\s*[:=]?\\s*#?[A-Z]{0,4}[- ]?\\d[\\w.-]*\\w|\\b(?:${ROLES})\\s*(?:no\\.?|number|#)?\\s*[:=]?\\s*#?\\d`, 'gi')],
	[/\b[A-Za-z_][\w.-]*=\d[\d.,]*\b/g, '='],
	[new RegExp(`\\b\\d[\\d,]*(?:\\.\\d+)?(?:\\s|-)?(?:${UNITS})(?![\\p{L}\\p{N}])`, 'giu')],
	[/\b\d[\d,]*(?:\.\d+)?\s?per\s+\p{L}+/gu, 'per'],
	[/\b\d[\d,]*(?:\.\d+)?\s?(?:USD|EUR|GBP|CHF)\b/g, /USD|EUR|GBP|CHF/],
	[/#\d{2,}\b/g, '#'],
	[/\b[A-Z]{2,4}[- ]?\d{2,6}(?:-\d+)*\b/g],
	[/\b(?:in|since|by|until|from|before|after)\s+(?:19|20)\d{2}\b/g],
	[/\b\d{1,4}(?:st|nd|rd|th)\b/g],
	// A count of things (two or more): "37 tables", "3 raised beds", "3,212 respondents".
	[/\b(?![01]\s)\d{1,3}(?:,\d{3})*(?:\.\d+)?\s+(?:[a-z]+\s+)?[a-z]{2,}s\b/g]
];

/** Any other number of two digits or more, or with a decimal part: "a 504", "rated 9.1", "Repeater 3000". */
const BARE_NUMBER = /(?<![\w.,:/#@-])(?:\d{2,}(?:,\d{3})*(?:\.\d+)?|\d\.\d+)(?![\w%])/g;

const FULL_MONTH = '(?:January|February|March|April|May|June|July|August|September|October|November|December)';
/** A date given by its month alone: "late March", "the end of July", "due in August". */
const MONTH_DATE = new RegExp(`\\b(?:(?:early|mid|late)[- ]|(?:end|beginning|start|middle) of\\s+|(?:in|by|until|since|from|before|after|during)\\s+)${FULL_MONTH}\\b`, 'g');
/** Days of the week a plan names: "Monday and Thursday", "on Sundays". */
const DAY_NAME = '(?:Mon|Tues|Wednes|Thurs|Fri|Satur|Sun)days?';
const WEEKDAYS = new RegExp(`\\b${DAY_NAME}(?:(?:,\\s*|\\s+(?:and|or|to)\\s+)${DAY_NAME})*\\b`, 'g');
/** The word before a month that says only when it is ("in August" is the fact "August"). */
const MONTH_PREPOSITION = /^(?:in|by|until|since|from|before|after|during)\s+/;

const FILE_EXTENSIONS =
	'ts|tsx|js|jsx|mjs|cjs|svelte|vue|py|rb|go|rs|java|kt|swift|c|h|cpp|hpp|cs|php|md|json|ya?ml|toml|ini|env|css|scss|html?|sql|sh|bash|txt|csv|xml|pdf|docx?|xlsx?|pptx?|png|jpe?g|gif|svg|webp|lock|log|conf|cfg|proto|graphql|tf|gradle|zip|tar|gz';
const URL = /\b(?:https?|ftp):\/\/[^\s<>()[\]{}"'`|]+|\bwww\.[\w-]+(?:\.[\w-]+)+[^\s<>()[\]{}"'`|]*|\b[\w-]+(?:\.[\w-]+)*\.(?:com|org|net|io|dev|app|ai|co|de|fr|uk|eu|ch|nl|se)\b(?:\/[^\s<>()[\]{}"'`|]*)?/gi;
/** This computer's own address, with its port: localhost:5173. */
const LOCALHOST = /\blocalhost(?::\d{1,5})?(?:\/[^\s<>()[\]{}"'`|]*)?/g;
/** An IP address, with its port when given (a version pattern would take only its first three numbers). */
const IP_ADDRESS = /\b(?:\d{1,3}\.){3}\d{1,3}(?::\d{1,5})?\b/g;
const EMAIL = /\b[\w.+-]+@[A-Za-z0-9-]+(?:\.[A-Za-z0-9-]+)+\b/g;
const PATH = /(?<![\w@:/.])(?:~|\.{1,2})?\/?(?:[\w@.+-]+\/)+[\w@.+-]*\w/g;
const WINDOWS_PATH = /\b[A-Za-z]:\\(?:[\w.-]+\\)*[\w.-]+/g;
const FILE_NAME = new RegExp(`\\b[\\w][\\w.-]*\\.(?:${FILE_EXTENSIONS})\\b|\\b(?:Dockerfile|Makefile|Procfile|Gemfile|Rakefile|Jenkinsfile)\\b`, 'g');
const INLINE_CODE = /`([^`\n]{1,100})`/g;
const CALLED = /\b[A-Za-z_$][\w$]*(?:\.[A-Za-z_$][\w$]*)*\((?!e?s\))(?=[^()\n]{0,200}\))/g;
/** Command-line flags: `--dry-run`. */
const FLAG = /(?<![\w-])--[a-z][\w-]*\w/g;
/** Names of resources, regions and models with a number among three or more parts: prod-eu-west-1, gpt-4o-mini. */
const KEBAB_ID = /\b[a-z][a-z0-9]*(?:-[a-z0-9]+){2,}\b/g;
/** Bundle and package ids written from the top-level domain down: com.example.notes. */
const BUNDLE_ID = /\b(?:com|org|net|io|dev|app|de|uk|fr|ch|nl|se)\.[a-z0-9-]+(?:\.[a-z0-9-]+)+\b/gi;
/** Module paths and settings in dots: statsmodels.imputation.mice, spring.datasource.url. */
const DOTTED_ID = /\b[a-z_][a-z0-9_]*(?:\.[a-z_][a-z0-9_]*){2,}\b/g;
/** Colours in hex, with a letter among their digits (#482 is a number). */
const COLOUR = /#(?=[0-9A-Fa-f]*[A-Fa-f])(?:[0-9A-Fa-f]{6}|[0-9A-Fa-f]{3})\b/g;
/** Codes of capitals and digits, five characters or more: team ids, form numbers (8KQ2J7X4TP, 1099-NEC). */
const CAPS_CODE = /\b(?=[A-Z0-9-]{5,}\b)(?=[A-Z-]*\d)(?=[0-9-]*[A-Z])[A-Z0-9]+(?:-[A-Z0-9]+)*\b/g;
const IS_EMAIL = /^[\w.+-]+@[A-Za-z0-9-]+(?:\.[A-Za-z0-9-]+)+$/;
const CODE_WORD = /\b(?:[a-z][a-z0-9]*(?:[A-Z][a-z0-9]*)+|[A-Za-z][A-Za-z0-9]*(?:_[A-Za-z0-9]+)+|[A-Z][a-z0-9]+(?:[A-Z][a-z0-9]+){1,}(?=\.|\())\b/g;
const FENCED = /^\s*(```|~~~)[^\n]*\n[\s\S]*?(?:\n\s*\1[^\n]*|$)/gm;

/** Pairs with a slash that are words, not paths. */
const NOT_PATHS = new Set(['and/or', 'he/she', 'his/her', 'km/h', 'w/o', 'n/a', 'i/o', 'yes/no', 'on/off', 'true/false', 'read/write', 'input/output', 'client/server', 'pros/cons', 'either/or', 'req/s', 'mg/dl', 'mmol/l', 'ml/h', 'mg/kg']);
const PATH_ROOTS = new Set(['src', 'lib', 'app', 'apps', 'test', 'tests', 'docs', 'bin', 'etc', 'usr', 'var', 'home', 'config', 'scripts', 'static', 'public', 'packages', 'components', 'pages', 'api', 'routes', 'build', 'dist', 'node_modules', 'tmp', 'opt', 'assets', 'vendor', 'internal', 'cmd', 'pkg']);

const HAS_EXTENSION = new RegExp(`\\.(?:${FILE_EXTENSIONS})$`, 'i');

function isPath(text: string): boolean {
	if (NOT_PATHS.has(text.toLowerCase())) return false;
	const parts = text.replace(/^[~.]*\/?/, '').split('/');
	if (parts.every((part) => /^\d*$/.test(part))) return false;
	if (/^(?:~|\.{1,2})?\//.test(text) && parts.length >= 1 && parts.some((part) => /[a-z]/i.test(part))) return true;
	if (HAS_EXTENSION.test(text)) return true;
	if (parts.length >= 3) return true;
	return parts.some((part) => /[._@\d-]/.test(part)) || PATH_ROOTS.has(parts[0].toLowerCase());
}

/** Capitalised words that start sentences or name no one. */
const NOT_NAMES = new Set(
	(
		'I Im Ive Ill Id OK Okay Ok Yes No Hi Hello Hey Thanks Thank Please Sure Great Good Fine Sorry Also So But And Or If Then The A An This That These Those It Its We You He She They My Our Your Let Lets What When Where Why How Who Which Here There Now Next First Second Third Finally Note Done Right Well Perfect Cool Nice Alright Actually Maybe Just Oh Ah Hmm Wait Agreed Understood Noted Got Great Yeah Yep Nope Cheers Best Regards Dear ' +
		'Monday Tuesday Wednesday Thursday Friday Saturday Sunday Mondays Tuesdays Wednesdays Thursdays Fridays Saturdays Sundays January February March April May June July August September October November December ' +
		'Mr Mrs Ms Dr Prof St AM PM FYI ASAP TODO API APIs URL URLs HTTP HTTPS JSON HTML CSS SQL UI UX ID IDs PR PRs CI CLI PDF CSV ETA EOD TLDR IMO BTW AI LLM FAQ OS NB PS ' +
		'Summary Goal Constraints Decisions Progress Files References Questions Open None Latest Focus Called Attached Can Could Would Should Will Is Are Do Does Did Have Has Had Was Were Any Some Every Each All Most Many Both Once In On At For From To With Without By Of As Before After Since Until While Today Tomorrow Yesterday Tonight Morning Afternoon Evening ' +
		'Dont Doesnt Isnt Cant Wont Didnt Theres Heres Thats Whats Its Youre Were Theyre Lets ' +
		'Never Always Must Do Contact Send Make Use Keep Check Add Remove Call Book Try Look Looks Find Take Bring Tell Ask Remember Consider See Give Put Run Fix Update Change Move Write Read Open Close Start Stop Avoid Ensure Be Go Get Set Show Pick Reserve Cancel Confirm Pay Sounds Seems However Otherwise Anyway Meanwhile Overall Unfortunately Fortunately Sadly Luckily Hopefully Apparently Plus Because Although Though Unless Whether Either Neither Not Only Even Still Yet Already Again Another Other Such Same Much More Less Few Several Instead Rather Besides Regarding About Per Via Like Unlike Given Based Yours Mine Ours Theirs Nothing Everything Something Anything Someone Everyone Nobody Happy Glad Welcome'
	).split(' ')
);
const TITLES = /^(?:mr|mrs|ms|dr|prof|st)\.?$/i;
const CONNECTORS = new Set(['of', 'de', 'da', 'di', 'van', 'von', 'der', 'den', 'del', 'la', 'le', 'du', '&']);
const WORD = /[\p{L}\p{N}][\p{L}\p{N}'’.&-]*/gu;

const isCapitalised = (word: string) => /^\p{Lu}/u.test(word) || /^\p{Ll}+\p{Lu}/u.test(word);
const isDistinctive = (word: string) => /\p{Ll}\p{Lu}|\p{N}/u.test(word) || /^\p{Lu}{2,}$/u.test(word) || /^\p{Lu}.*\p{Lu}/u.test(word);
const bareWord = (word: string) => word.replace(/['’]s$/u, '').replace(/[.'’-]+$/u, '');

/** A request written as a command ("Book the hotel", "For Porto, find something near the river"); not "Copy of the contract", "Start date is…". */
const IMPERATIVE =
	/(?:^|[,;:]\s*|\b(?:and|so|also|please|just|then|now)\s+)(?:send|put|book|find|keep|drop|ask|remind|use|add|write|make|call|check|remove|include|move|give|copy|tell|reply|email|schedule|cancel|reserve|confirm|pay|stop|start|switch|leave|attach|mention|change|rename|delete|create|update|draft|prepare|pick|choose|buy|print|save|translate|replace|convert|skip|avoid|list)\s+(?!(?:of|date|time|is|was|are|and|or)\b)\S/i;
/** What must be, whoever says it must ("any tool must support SSO"). */
const MUST = /\bmust(?:n['’]t| not)?\b/i;
const INSTRUCTION = /(?:^|[,;:]\s*|\b(?:and|but|so|also|please|just|then)\s+)(?:(?:you|we|it|they|everything|everyone|all|this|that|the \w+)\s+)?(?:always|never|must(?:n['’]t| not)?|don['’]t|do not|make sure|be sure to|ensure|avoid|remember to|under no circumstances|no matter what|stick to|keep (?:it|them|answers?|replies)|use only|only use|please \w+)\b/i;

/** A line break, or the space after a sentence's end that is not an abbreviation's (the cheap test first: it fails almost everywhere). */
const SENTENCE_BREAK = /\n+|(?<=[.!?])(?<!\b(?:Dr|Mr|Mrs|Ms|Prof|St|Jr|Sr|vs|etc|e\.g|i\.e|approx|no)\.)\s+(?=[\p{Lu}\p{N}"“(])/u;

/** Sentences of a text: split at sentence ends and line breaks, list markers and quotes left out. */
function sentences(text: string): string[] {
	return text
		.split(SENTENCE_BREAK)
		.map((part) => part.replace(/^\s*(?:[-*+>]|\d+[.)])\s+/, '').trim())
		.filter(Boolean);
}

/** The plain forms made during one extraction: a conversation names the same things again and again. */
const plainForms = new Map<string, string>();

function normaliseFact(text: string): string {
	let plain = plainForms.get(text);
	if (plain === undefined) plainForms.set(text, (plain = normaliseText(text)));
	return plain;
}


class Collector {
	facts: Fact[] = [];
	#seen = new Set<string>();

	get full(): boolean {
		return this.facts.length >= MAX_FACTS;
	}

	add(kind: FactClass, text: string, seq: number, key = normaliseFact(text)): void {
		if (!key || this.facts.length >= MAX_FACTS) return;
		const id = `${kind === 'instruction' ? 'i' : 'f'}:${key}`;
		if (this.#seen.has(id)) return;
		this.#seen.add(id);
		this.facts.push({ class: kind, text: text.length > MAX_FACT_CHARS ? `${text.slice(0, MAX_FACT_CHARS - 1)}…` : text, key, seq });
	}
}

/** The text a row offers: fenced code left out (code is not summarised), a summary without its headings. */
function readable(source: FactSource): string {
	let text = source.content.slice(0, source.role === 'tool' ? MAX_TOOL_CHARS : MAX_ROW_CHARS).replace(FENCED, '\n');
	if (source.kind === 'summary') {
		text = text
			.split('\n')
			.filter((line) => !/^\s*#{1,6}\s/.test(line) && !/^\s*[-*]\s+\(none\)\s*$/.test(line) && !/^Summary of the earlier conversation/.test(line))
			.join('\n');
	}
	return text;
}

/**
 * Runs `pattern` (global) over `text`, adding each match `take` accepts, and blanks what it
 * took (so no later pattern reads it again). A text without `needs` in it is passed over: most
 * rows hold no @, backtick or slash, and a pattern costs a pass over every row.
 */
function claim(text: string, pattern: RegExp, take: (match: string) => boolean, needs?: string | RegExp): string {
	if (needs !== undefined && !(typeof needs === 'string' ? text.includes(needs) : needs.test(text))) return text;
	const parts: string[] = [];
	let from = 0;
	pattern.lastIndex = 0;
	for (let match = pattern.exec(text); match; match = pattern.exec(text)) {
		const found = match[0];
		if (!found) {
			pattern.lastIndex++;
			continue;
		}
		if (!take(found)) continue;
		parts.push(text.slice(from, match.index), ' '.repeat(found.length));
		from = match.index + found.length;
	}
	if (from === 0) return text;
	parts.push(text.slice(from));
	return parts.join('');
}

const trimUrl = (url: string) => url.replace(/[.,;:!?)\]]+$/, '');

const ROLE_PREFIX = new RegExp(`^(?:${ROLES})(?: no| number)? `, 'i');

function numberKey(text: string, normalise = normaliseFact): string {
	const key = normalise(text);
	// The role says what the number is; a summary that holds the number with its unit holds the fact.
	const bare = key.replace(ROLE_PREFIX, '').replace(/^(?:in|since|by|until|from|before|after) (?=\d)/, '').replace(/^v (?=\d)/, '');
	return bare || key;
}

function nameKey(text: string, normalise = normaliseFact): string {
	return normalise(text.split(/\s+/).filter((word) => !TITLES.test(word)).join(' '));
}

/** The plain form a summary must hold for a fact of class `kind` written as `text`, as the extractor keys it. */
export function factKey(kind: FactClass, text: string): string {
	if (kind === 'number') return numberKey(text, normaliseText);
	if (kind === 'name') return nameKey(text, normaliseText);
	if (kind === 'instruction') return contentWords(normaliseText(text)).join(' ');
	return normaliseText(text);
}

/** The words of the sources written capitalised other than at a sentence's start (names), and each source's sentences. */
interface WordUse {
	midSentence: Set<string>;
	sentences: string[][];
}

const WORD_CHAR = /[\p{L}\p{N}'’.&-]/u;
/** Where a capital may be: an ASCII one, or any character past ASCII (a Unicode pattern reads text several times slower). */
const MAYBE_CAPITAL = /[A-Z\u0080-\uffff]/g;
const IS_CAPITAL = /^\p{Lu}/u;

/** The next capital letter in `text` from `from`, or -1. */
function nextCapital(text: string, from: number): number {
	MAYBE_CAPITAL.lastIndex = from;
	for (let found = MAYBE_CAPITAL.exec(text); found; found = MAYBE_CAPITAL.exec(text)) {
		const code = text.charCodeAt(found.index);
		if (code < 0x80 || IS_CAPITAL.test(text.slice(found.index, found.index + 2))) return found.index;
	}
	return -1;
}

/** The character (a whole code point) that ends before `at`. */
function charBefore(text: string, at: number): string {
	const code = text.charCodeAt(at - 1);
	return code >= 0xdc00 && code <= 0xdfff && at >= 2 ? text.slice(at - 2, at) : text[at - 1];
}

/** The word (as WORD reads words) that holds the letter at `at`. */
function wordAt(sentence: string, at: number): RegExpExecArray {
	let start = at;
	while (start > 0 && WORD_CHAR.test(charBefore(sentence, start))) start -= charBefore(sentence, start).length;
	WORD.lastIndex = start;
	return WORD.exec(sentence)!;
}

/**
 * Calls `visit` with each word of `sentence` that holds a capital, in order, and whether it is
 * the sentence's first word. Names are made of such words (and the connectors between them):
 * the search goes from capital to capital instead of reading every word, as most words of a
 * conversation have none.
 */
function eachCapitalWord(sentence: string, visit: (word: RegExpExecArray, atStart: boolean) => number | void): void {
	let at = nextCapital(sentence, 0);
	if (at < 0) return;
	WORD.lastIndex = 0;
	const first = WORD.exec(sentence)!;
	while (at >= 0) {
		const word = wordAt(sentence, at);
		// `visit` may read on past the word, and says where to look for the next capital.
		const next = visit(word, word.index === first.index);
		at = nextCapital(sentence, Math.max(word.index + word[0].length, next ?? 0));
	}
}

function readWordUse(texts: readonly string[]): WordUse {
	const use: WordUse = { midSentence: new Set(), sentences: [] };
	for (const text of texts) {
		const said = sentences(text);
		use.sentences.push(said);
		for (const sentence of said) {
			eachCapitalWord(sentence, (match, atStart) => {
				const word = bareWord(match[0]);
				if (!atStart && isCapitalised(word)) use.midSentence.add(word);
			});
		}
	}
	return use;
}

/** A capitalised word alone at a sentence's start is a name when it is written so elsewhere too, or looks like one ("McKay", "GPT4"). */
function startsAsName(word: string, use: WordUse): boolean {
	return use.midSentence.has(word) || isDistinctive(word);
}

interface NameWord {
	word: string;
	index: number;
	/** The sentence's first word. */
	atStart: boolean;
}

/** Whether `sentence` breaks after the word that ends before `end` ("Paris, London"): a run of a name ends there. */
const breaksAfter = (sentence: string, end: number) => sentence[end] === ',' || sentence[end] === ';' || sentence[end] === ':';

function addName(run: NameWord[], sentence: string, seq: number, use: WordUse, out: Collector): void {
	while (run.length && CONNECTORS.has(run.at(-1)!.word.toLowerCase())) run.pop();
	while (run.length && (NOT_NAMES.has(run[0].word.replace(/['’]/g, '')) || TITLES.test(run[0].word)) && !(TITLES.test(run[0].word) && run.length > 1)) run.shift();
	if (!run.length) return;
	const first = run[0];
	const single = run.length === 1 || (run.length === 2 && TITLES.test(first.word));
	const name = run.map((item) => item.word).join(' ');
	const lone = run.at(-1)!.word;
	const accepted = !(single && NOT_NAMES.has(lone)) && (!first.atStart || !single || startsAsName(lone, use));
	if (accepted && name.length > 1) out.add('name', sentence.slice(first.index, run.at(-1)!.index + run.at(-1)!.word.length), seq, nameKey(name));
}

/**
 * Names: runs of capitalised words, with connectors between them ("Bank of England"), that
 * end at any other word or at a comma, semicolon or colon.
 */
function collectNames(text: string, seq: number, use: WordUse, out: Collector): void {
	for (const sentence of sentences(text)) {
		eachCapitalWord(sentence, (match, atStart) => {
			const word = bareWord(match[0]);
			if (!isCapitalised(word)) return;
			const run: NameWord[] = [{ word, index: match.index, atStart }];
			let end = match.index + match[0].length;
			while (!breaksAfter(sentence, end)) {
				WORD.lastIndex = end;
				const next = WORD.exec(sentence);
				if (!next) break;
				const nextWord = bareWord(next[0]);
				end = next.index + next[0].length;
				if (!isCapitalised(nextWord) && !CONNECTORS.has(nextWord.toLowerCase())) break;
				run.push({ word: nextWord, index: next.index, atStart: false });
			}
			addName(run, sentence, seq, use, out);
			return end;
		});
	}
}

function collectInstructions(said: readonly string[], seq: number, out: Collector): void {
	for (const sentence of said) {
		if (sentence.endsWith('?') || !(INSTRUCTION.test(sentence) || IMPERATIVE.test(sentence) || MUST.test(sentence))) continue;
		// What the user always or never does is a habit, not an instruction; what the user must do is one.
		if (/^(?:i|i['’]m|i['’]ve)\s+(?:always|never|don['’]t|do not)\b/i.test(sentence) && !MUST.test(sentence)) continue;
		const clean = sentence.replace(/\*\*|__|`/g, '').replace(/\s+/g, ' ').trim();
		if (clean.length < 8) continue;
		out.add('instruction', clean, seq, contentWords(normaliseFact(clean)).join(' '));
	}
}

/** Every fact in `sources`, once each (where first found), in the order found. */
export function extractFacts(sources: readonly FactSource[]): Fact[] {
	const out = new Collector();
	plainForms.clear();
	const texts = sources.map(readable);
	const use = readWordUse(texts);
	sources.forEach((source, index) => {
		if (out.full) return;
		const seq = source.seq;
		let text = texts[index];
		text = claim(text, EMAIL, (found) => (out.add('email', found, seq), true), '@');
		text = claim(text, URL, (found) => {
			const url = trimUrl(found);
			if (!/[/:]|\bwww\./i.test(url) && !/^[\w-]+(?:\.[\w-]+)+$/.test(url)) return false;
			out.add('url', url, seq);
			return true;
		});
		text = claim(text, LOCALHOST, (found) => (out.add('url', trimUrl(found), seq), true), 'localhost');
		text = claim(text, IP_ADDRESS, (found) => (out.add('url', found, seq), true), '.');
		text = claim(text, INLINE_CODE, (found) => {
			const inner = found.slice(1, -1).trim();
			if (!inner) return true;
			const kind: FactClass = /^(?:https?:\/\/|www\.)/.test(inner) ? 'url' : IS_EMAIL.test(inner) ? 'email' : /\//.test(inner) && !/\s/.test(inner) ? 'path' : /^\d[\d.,:]*$/.test(inner) ? 'number' : 'identifier';
			out.add(kind, inner, seq);
			return true;
		}, '`');
		text = claim(text, WINDOWS_PATH, (found) => (out.add('path', found, seq), true), ':\\');
		text = claim(text, PATH, (found) => {
			if (!isPath(found)) return false;
			out.add('path', found, seq);
			return true;
		}, '/');
		text = claim(text, FILE_NAME, (found) => (out.add('path', found, seq), true));
		text = claim(text, CALLED, (found) => {
			const name = found.slice(0, -1);
			if (name.length < 2 || NOT_NAMES.has(name)) return false;
			out.add('identifier', `${name}()`, seq, normaliseFact(name));
			return true;
		}, '(');
		text = claim(text, FLAG, (found) => (out.add('identifier', found, seq), true), '--');
		text = claim(text, KEBAB_ID, (found) => /\d/.test(found) && (out.add('identifier', found, seq), true), '-');
		text = claim(text, BUNDLE_ID, (found) => (out.add('identifier', found, seq), true), '.');
		text = claim(text, DOTTED_ID, (found) => (out.add('identifier', found, seq), true), '.');
		text = claim(text, COLOUR, (found) => (out.add('identifier', found, seq), true), '#');
		text = claim(text, CODE_WORD, (found) => (out.add('identifier', found, seq), true));
		// Every number pattern takes only a match with a digit in it.
		if (/\d/.test(text)) {
			for (const [pattern, needs] of NUMBER_PATTERNS) {
				text = claim(
					text,
					pattern,
					(found) => {
						const fact = found.trim();
						if (!/\d/.test(fact)) return false;
						out.add('number', fact, seq, numberKey(fact));
						return true;
					},
					needs
				);
			}
			text = claim(text, CAPS_CODE, (found) => (out.add('identifier', found, seq), true));
		}
		text = claim(text, MONTH_DATE, (found) => (out.add('number', found.replace(MONTH_PREPOSITION, ''), seq), true), HAS_MONTH);
		text = claim(text, WEEKDAYS, (found) => (out.add('number', found, seq), true), 'day');
		if (source.role !== 'tool') collectNames(text, seq, use, out);
		if (/\d/.test(text)) claim(text, BARE_NUMBER, (found) => (out.add('number', found, seq), true));
		if (source.role === 'user' && source.kind !== 'summary') collectInstructions(use.sentences[index], seq, out);
	});
	plainForms.clear();
	return out.facts;
}
