// Facts that are numbers, with what makes them one: their unit or role, their currency, their
// date, range, rate or time ("port 5432", "$100 per seat per month", "May 23 at 16:15"), in the
// order the extractor tries them, and the key a summary must hold for each. Pure.
import { plainForm } from './fact-collector';

const MONTH = '(?:January|February|March|April|May|June|July|August|September|October|November|December|Jan|Feb|Mar|Apr|Jun|Jul|Aug|Sept?|Oct|Nov|Dec)\\.?';
const WEEKDAY = '(?:(?:Mon|Tues|Wednes|Thurs|Fri|Satur|Sun)day,?\\s+)?';
const ORDINAL = '\\d{1,2}(?:st|nd|rd|th)?';
const UNITS =
	'%|percentage points?|percent|ms|milliseconds?|s|secs?|seconds?|mins?|minutes?|h|hrs?|hours?|days?|weeks?|months?|years?|kb|mb|gb|tb|kib|mib|gib|px|rem|mg|mcg|µg|g|kg|lbs?|ml|l|km²|m²|m³|cm²|cm³|ft²|ft³|km|m|cm|mm|miles?|°c|°f|bpm|mmhg|rpm|fps|hz|khz|mhz|ghz|kw|kwh|x|×|tokens|requests|req/s|rps|qps|users|nights?|people|persons?|guests|adults|children|tablets?|pills?|doses?|units|cores|threads|replicas|retries|attempts|pages?|rows?|lines?|characters|words|euros?|dollars?|pounds|francs|thousand|million|billion|bn';
const ROLES =
	'port|line|version|room|gate|seat|flight|order|invoice|account|ticket|booking|confirmation|reference|ref|pr|issue|build|floor|platform|terminal|case|policy|article|clause|section|batch|step|chapter|page|pid|id|code|pin|zip|postcode|extension|apartment|apt|suite|bus|train|route|release|sprint|node|python|java|postgres|postgresql|redis|ruby|php|ios|android|net|phase|stage|round|reviewer|part|patient|customer|serial|channel|day|week';

/** What an amount is for: "a head", "per seat per month", "an hour". */
const RATE = '(?:\\s+(?:a|an|per)\\s+[a-zA-Z][a-zA-Z³²]*)*';
/** The far end of a range: "–8", " to 12". */
const RANGE_END = '(?:\\s*(?:–|-|to)\\s*\\d[\\d,]*(?:\\.\\d+)?)?';
/** Words after a number that say nothing of what it measures ("504 after", "2019 and"). */
const NOT_MEASURED =
	'a|an|the|and|or|but|nor|so|yet|if|then|than|that|this|these|those|to|of|in|on|at|by|for|from|with|without|into|onto|over|under|about|after|before|since|until|till|during|per|via|as|is|are|was|were|be|been|being|am|do|does|did|has|have|had|will|would|can|could|should|may|might|must|shall|it|its|they|them|their|he|she|his|her|we|our|you|your|me|my|us|which|who|whom|whose|what|when|where|while|why|how|all|any|each|every|both|either|neither|no|not|only|also|just|even|still|again|already|ago|now|today|tomorrow|yesterday|here|there|more|most|less|least|very|much|many|few|some|such|other|another|same|up|down|out|off|back|away|later|earlier|instead|too|once|twice|above|below|across|around|behind|beyond|near|against|along|among|between|beside|besides|despite|except|inside|outside|toward|towards|upon|within|throughout|versus|vs';
/**
 * The word a number measures, when the next word on its line is one: "rating" of "9.1 rating",
 * not a verb ("15% applies") or an adverb ("5% exactly").
 */
const MEASURED = `[ \\t]+(?!(?:${NOT_MEASURED})\\b|[a-z]+ly\\b)[a-z]{3,}(?<!s)\\b`;
/** The same, plural too: the "reps" of "3 sets of 15 reps". */
const MEASURED_ANY = `[ \\t]+(?!(?:${NOT_MEASURED})\\b|[a-z]+ly\\b)[a-z]{3,}\\b`;
/** More numbers of the same role: "channel 1, 6 or 11". */
const MORE_OF_ROLE = '(?:(?:\\s*,\\s*\\d[\\w.-]*)*,?\\s+(?:and|or)\\s+\\d[\\w.-]*(?<![.-]))?';
/** A time of day, with its seconds and zone when given. */
const TIME = '\\d{1,2}:\\d{2}(?::\\d{2})?(?:\\s?[ap]\\.?m\\.?)?(?:\\s+(?:UTC|GMT|CET|CEST|BST|EST|EDT|PST|PDT|[A-Z][a-z]+\\s+time\\b))?';

/**
 * A letter of the Latin, Greek, Cyrillic and other alphabets, or of CJK, without the Unicode
 * flag (a Unicode pattern reads text several times slower).
 */
const LETTER = '[A-Za-z\\u00c0-\\u00d6\\u00d8-\\u00f6\\u00f8-\\u024f\\u0370-\\u1fff\\u2c00-\\ud7ff]';
const LETTER_OR_DIGIT = `(?:${LETTER}|\\d)`;
const IS_UPPER = /\p{Lu}/u;

/** Whether the word just before `at`, a space apart, holds a capital: "TREC" before "DL 2019". */
function followsCapitalisedWord(text: string, at: number): boolean {
	if (at < 2 || !/\s/.test(text[at - 1])) return false;
	let capital = false;
	for (let i = at - 2; i >= 0; i--) {
		const code = text.charCodeAt(i);
		if (code === 33) continue;
		if (code < 0x80) {
			if (code >= 65 && code <= 90) capital = true;
			else if (!(code >= 97 && code <= 122)) break;
		} else if (IS_UPPER.test(text[i])) capital = true;
		else if (!/\p{L}/u.test(text[i])) break;
	}
	return capital;
}

/** Whether a text names a month at all (the date patterns are read only then). */
export const HAS_MONTH = /Jan|Feb|Ma[ry]|Apr|Ju[nl]|Aug|Sep|Oct|Nov|Dec/;

/**
 * Number-like facts, most specific first: each claims its text before the next looks (only in
 * a text holding the character given, and only a match the test given accepts).
 */
export const NUMBER_PATTERNS: Array<[RegExp, (string | RegExp)?, ((at: number, text: string) => boolean)?]> = [
	// A value on a line of its own with what it counts: "Connected devices: 23".
	[/^[ \t]*(?:[-*][ \t]+)?[A-Z][A-Za-z -]{1,40}:[ \t]*\d[\d,.]*[ \t]*$/gm, ':'],
	[/\b\d{4}-\d{2}-\d{2}(?:[T ]\d{2}:\d{2}(?::\d{2})?Z?)?\b/g, '-'],
	[new RegExp(`\\b${WEEKDAY}(?:(?:${ORDINAL}\\s*[–-]\\s*)?${ORDINAL}\\s+(?:of\\s+)?${MONTH}(?:,?\\s+\\d{4})?|${MONTH}\\s+${ORDINAL}(?:\\s*[–-]\\s*${ORDINAL})?(?:,?\\s+\\d{4})?|${MONTH}\\s+\\d{4})(?:,?\\s+at\\s+${TIME})?(?![\\w:])`, 'gi'), HAS_MONTH],
	[/\b\d{1,2}[/.]\d{1,2}[/.]\d{2,4}\b/g],
	// A ratio or fraction: "an 80/20 split", "24/7", "3/4 of it" (not a date's or a path's parts).
	[/(?<![\w./-])\d{1,3}(?:\.\d+)?\/\d{1,3}(?:\.\d+)?(?![\w/]|\.\d)/g, '/'],
	[new RegExp(`(?:[$€£¥]|\\b(?:USD|EUR|GBP|CHF|JPY|CAD|AUD|SEK|NOK|DKK)\\s?)\\d[\\d,]*(?:\\.\\d+)?(?:\\s*[–-]\\s*\\d[\\d,]*(?:\\.\\d+)?)?(?:\\s?(?:k|m|bn|million|billion)\\b)?${RATE}(?![\\w³²])`, 'g'), /[$€£¥]|USD|EUR|GBP|CHF|JPY|CAD|AUD|SEK|NOK|DKK/],
	[/\+\d[\d ().-]{7,}\d/g, '+'],
	[/\bv?\d+\.\d+\.\d+(?:[-+][\w.]+)?\b|\bv\d+(?:\.\d+)?\b/g],
	[new RegExp(`\\b${TIME}(?![\\w:])|\\b\\d{1,2}\\s?[ap]\\.?m\\.?(?!\\w)`, 'gi')],
	[new RegExp(`\\b(?:${ROLES})\\b\\s*(?:no\\.?|number|#)?\\s*[:=]?\\s*#?(?:[A-Z]{0,4}[- ]?\\d[\\w.-]*\\w|\\d)${MORE_OF_ROLE}`, 'gi')],
	[/\b[A-Za-z_][\w.-]*=\d[\d.,]*\b/g, '='],
	// Products and scores before units take their "x": "3 × 15", "3 out of 10".
	[/\b\d+(?:\.\d+)?(?:\s?[×x]\s?\d+(?:\.\d+)?)+(?:\s?=\s?\d+(?:\.\d+)?(?:\s?(?:m³|m²|cm³|cm²|m|cm|mm))?)?(?![\w³²])|\b\d+\s+out\s+of\s+\d+\b/g],
	// Sets of a measure: "3 sets of 15 reps", "2 sessions of 45 minutes".
	[new RegExp(`\\b\\d+\\s+[a-z]+s\\s+of\\s+\\d+(?:[.,]\\d+)*(?:${MEASURED_ANY})?`, 'g'), 'of'],
	// A share with what it is a share of: "a 35% discount".
	[new RegExp(`\\b\\d+(?:\\.\\d+)?\\s?%${MEASURED}`, 'g'), '%'],
	// A measure at a cut-off, with its value: "MRR@10 = 39.7", "Recall@1000 of 98.4".
	[/\b[A-Za-z][\w-]*@\d+(?:\s?(?:=|of)\s?\d+(?:\.\d+)?%?)?/g, '@'],
	// A count in millions before "million" is taken as a unit: "42 million rows".
	[/\b\d[\d,]*(?:\.\d+)?\s+(?:thousand|million|billion)\s+[a-z]{2,}s\b/g],
	[new RegExp(`\\b\\d[\\d,]*(?:\\.\\d+)?${RANGE_END}(?:\\s|-)?(?:${UNITS})(?!${LETTER_OR_DIGIT})(?:\\s+of\\s+[a-z]{2,}\\b)?${RATE}`, 'gi')],
	[new RegExp(`\\b\\d[\\d,]*(?:\\.\\d+)?\\s?per\\s+${LETTER}+`, 'g'), 'per'],
	[/\b\d[\d,]*(?:\.\d+)?\s?(?:USD|EUR|GBP|CHF)\b/g, /USD|EUR|GBP|CHF/],
	[/#\d{2,}\b/g, '#'],
	// A code of capitals and digits, not the model number of a name ("TREC DL 2019").
	[/\b[A-Z]{2,4}[- ]?\d{2,6}(?:-\d+)*\b/g, undefined, (at, text) => !followsCapitalisedWord(text, at)],
	[/\b(?:in|since|by|until|from|before|after)\s+(?:19|20)\d{2}\b/g],
	[/\b\d{1,4}(?:st|nd|rd|th)\b/g],
	// A number made an adjective: "a 100-connection pool", "a 20-word title".
	[/\b\d[\d,.]*-[a-z]{3,}\b/g, '-'],
	// A count of things (two or more): "37 tables", "3 raised beds", "3,212 respondents", "6 take-homes".
	[/\b(?![01]\s)\d{1,3}(?:,\d{3})*(?:\.\d+)?\s+(?:[a-z]+\s+)?[a-z]{2,}(?:-[a-z]+)*s\b/g],
	// A section of a law or plan: "401(k)", "501(c)(3)".
	[/\b\d+(?:\([a-z0-9]{1,3}\))+/g, '('],
	// A number of two digits or more, or with a decimal part, and what it measures: "a 9.1 rating", "11 passed".
	[new RegExp(`(?<![\\w.,:/#@-])(?:\\d{2,}(?:,\\d{3})*(?:\\.\\d+)?|\\d\\.\\d+)${MEASURED}`, 'g')]
];

/** Any other number of two digits or more, or with a decimal part: "a 504", "rated 9.1", "Repeater 3000". */
export const BARE_NUMBER = /(?<![\w.,:/#@-])(?:\d{2,}(?:,\d{3})*(?:\.\d+)?|\d\.\d+)(?![\w%])/g;

/** Words before a number that name no setting it is the value of: small words, words of estimate, the word "number", and verbs of saying, costing and reaching. */
const NOT_SETTINGS = new Set([
	...NOT_MEASURED.split('|'),
	...'say says said get gets got cost costs take takes took make makes made reach reaches hit hits see sees saw show shows need needs use uses pay pays paid give gives gave return returns hold holds plus minus times like approx roughly nearly almost exactly maybe perhaps probably possibly another extra total number numbers'.split(' ')
]);
const isLower = (code: number) => code >= 97 && code <= 122;
const isLowerOrDigit = (code: number) => isLower(code) || (code >= 48 && code <= 57);
/** What a word is part of when it comes right after one of these: a name in code, a path, an address. */
const JOINS_WORD = /[\w.@/'’-]/;

/**
 * Where a bare number at `at` begins with the setting it is the value of: the lower-case word a
 * space before it ("seed 42", "maxclients 10000", "firmware 7.57"), unless that word is a small
 * word, an adverb, a verb in -ed or -ing, or one of the common verbs before a number ("costs 42").
 * Read backwards by character codes: there are many bare numbers, and a pattern anchored at the
 * end of a slice tries every position of it.
 */
export function settingStart(text: string, at: number): number {
	let end = at;
	while (end > 0 && (text.charCodeAt(end - 1) === 32 || text.charCodeAt(end - 1) === 9)) end--;
	let start = end;
	while (start > 0 && end - start <= 30 && isLowerOrDigit(text.charCodeAt(start - 1))) start--;
	if (end === at || end - start < 2 || !isLower(text.charCodeAt(start)) || (start > 0 && JOINS_WORD.test(text[start - 1]))) return at;
	const word = text.slice(start, end);
	return NOT_SETTINGS.has(word) || /(?:ly|ing|[^e]ed)$/.test(word) ? at : start;
}

const FULL_MONTH = '(?:January|February|March|April|May|June|July|August|September|October|November|December)';
/** A date given by its month alone: "late March", "the end of July", "due in August". */
export const MONTH_DATE = new RegExp(`\\b(?:(?:early|mid|late)[- ]|(?:end|beginning|start|middle) of\\s+|(?:in|by|until|since|from|before|after|during)\\s+)${FULL_MONTH}\\b`, 'g');
/** Days of the week a plan names: "Monday and Thursday" (not a habit's "on Fridays"). */
const DAY_NAME = '(?:Mon|Tues|Wednes|Thurs|Fri|Satur|Sun)day';
export const WEEKDAYS = new RegExp(`\\b${DAY_NAME}(?:(?:,\\s*|\\s+(?:and|or|to)\\s+)${DAY_NAME})*\\b`, 'g');
/** The word before a month that says only when it is ("in August" is the fact "August"). */
export const MONTH_PREPOSITION = /^(?:in|by|until|since|from|before|after|during)\s+/;

const ROLE_PREFIX = new RegExp(`^(?:${ROLES})(?: no| number)? `, 'i');

/** The key a summary must hold for a number: the number with its unit, without its role word. */
export function numberKey(text: string, normalise = plainForm): string {
	const key = normalise(text);
	// A key that starts with its number has no role word before it.
	if (key.charCodeAt(0) <= 57) return key;
	// The role says what the number is; a summary that holds the number with its unit holds the fact.
	const bare = key.replace(ROLE_PREFIX, '').replace(/^(?:in|since|by|until|from|before|after) (?=\d)/, '').replace(/^v (?=\d)/, '');
	return bare || key;
}
