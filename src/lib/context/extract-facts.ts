// The facts a later answer may need, drawn from the rows a compaction replaces: file paths,
// URLs, code identifiers (in backticks, called, or written camelCase or snake_case), numbers
// with their unit or role (ports, versions, amounts, dates), e-mail addresses, names of people
// and things, and the user's explicit instructions. No model call: patterns only, linear in the
// text, so the worker checks a 100,000-token span in milliseconds. Pure.
import { proposalOf } from './accepted-proposal';
import { claim, type Span } from './claim-matches';
import { Collector, forgetPlainForms, plainForm } from './fact-collector';
import type { Fact, FactClass, FactSource } from './fact-types';
import { LIBRARY, MEDICAL_ENDING, medicalTerm } from './domain-terms';
import { collectInstructions } from './find-instructions';
import { collectNames, collectQuotedNames, nameKey, NOT_NAMES, readWordUse } from './find-names';
import { contentWords, normaliseFact as normaliseText } from './normalise-fact';
import { sentences } from './split-sentences';
import { BARE_NUMBER, HAS_MONTH, MONTH_DATE, MONTH_PREPOSITION, NUMBER_PATTERNS, numberKey, settingStart, WEEKDAYS } from './number-patterns';
import {
	BUNDLE_ID,
	CALLED,
	CALLED_WITH,
	CAPS_CODE,
	CODE_MEANING,
	CODE_WORD,
	COLOUR,
	DOTTED_ID,
	EMAIL,
	FILE_NAME,
	FLAG,
	GATES,
	INLINE_CODE,
	IP_ADDRESS,
	IS_EMAIL,
	isPath,
	KEBAB_ID,
	listSpan,
	LOCALHOST,
	NAME_LIST,
	NAME_VERSION,
	PACKAGE_COMMAND,
	PASCAL_MEMBER,
	namesInCode,
	PATH,
	REMARK,
	SQL_STATEMENT,
	trimUrl,
	URL,
	WINDOWS_PATH
} from './reference-patterns';

export type { Fact, FactClass, FactSource } from './fact-types';
export { FACT_CLASSES } from './fact-types';
export { MAX_FACTS } from './fact-collector';

const MAX_ROW_CHARS = 200_000;
const MAX_TOOL_CHARS = 20_000;
const FENCED = /^\s*(```|~~~)[^\n]*\n[\s\S]*?(?:\n\s*\1[^\n]*|$)/gm;

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

/** The plain form a summary must hold for a fact of class `kind` written as `text`, as the extractor keys it. */
export function factKey(kind: FactClass, text: string): string {
	if (kind === 'number') return numberKey(text, normaliseText);
	if (kind === 'name') return nameKey(text, normaliseText);
	if (kind === 'instruction') return contentWords(normaliseText(text)).join(' ');
	return normaliseText(text);
}

const NO_NUMBERS: ReadonlySet<string> = new Set();

/** Whether a word before "(" names a function, not a word in prose ("See (below)"). */
const isCallName = (name: string) => name.length >= 2 && !NOT_NAMES.has(name);

/** A pattern a row is read with: what a match adds and takes from the text (see claim), and what a text must hold for it to be read. */
type Step = readonly [pattern: RegExp, take: (found: string, at: number, text: string) => boolean | Span, needs?: string | RegExp];

/**
 * The patterns every row is read with before its numbers, most specific first, each adding its
 * facts to `out` as said in the row `row.seq`. Made once per extraction, not once per row.
 */
function referenceSteps(out: Collector, row: { seq: number }): Step[] {
	const taking = (kind: FactClass) => (found: string) => (out.add(kind, found, row.seq), true);
	return [
		[EMAIL, taking('email'), '@'],
		[URL, (found) => {
			const url = trimUrl(found);
			if (!/[/:]|\bwww\./i.test(url) && !/^[\w-]+(?:\.[\w-]+)+$/.test(url)) return false;
			out.add('url', url, row.seq);
			return true;
		}, GATES.url],
		[LOCALHOST, (found) => (out.add('url', trimUrl(found), row.seq), true), 'localhost'],
		[IP_ADDRESS, taking('url'), '.'],
		[INLINE_CODE, (found) => {
			const inner = found.slice(1, -1).trim();
			if (!inner) return true;
			const kind: FactClass = /^(?:https?:\/\/|www\.)/.test(inner) ? 'url' : IS_EMAIL.test(inner) ? 'email' : /\//.test(inner) && !/\s/.test(inner) ? 'path' : /^\d[\d.,:]*$/.test(inner) ? 'number' : 'identifier';
			out.add(kind, inner, row.seq);
			return true;
		}, '`'],
		[WINDOWS_PATH, taking('path'), ':\\'],
		[PATH, (found) => isPath(found) && (out.add('path', found, row.seq), true), '/'],
		[FILE_NAME, taking('path'), GATES.fileName],
		[CALLED_WITH, (found, at, text) => {
			// A method (".Get(") or a quoted argument is code whatever its name; a word before "(" in prose may not be.
			const code = text[at - 1] === '.' || found.endsWith('")') || found.endsWith("')");
			return (code || isCallName(found.slice(0, found.indexOf('(')))) && (out.add('identifier', found, row.seq), true);
		}, GATES.called],
		[CALLED, (found) => {
			const name = found.slice(0, -1);
			if (!isCallName(name)) return false;
			out.add('identifier', `${name}()`, row.seq, plainForm(name));
			return true;
		}, GATES.called],
		[PACKAGE_COMMAND, taking('identifier'), GATES.packageCommand],
		[FLAG, taking('identifier'), '--'],
		[SQL_STATEMENT, taking('identifier'), GATES.sql],
		[NAME_VERSION, taking('identifier'), GATES.nameVersion],
		[KEBAB_ID, (found) => /\d/.test(found) && (out.add('identifier', found, row.seq), true), GATES.kebab],
		[BUNDLE_ID, taking('identifier'), GATES.bundle],
		[DOTTED_ID, taking('identifier'), GATES.dotted],
		[PASCAL_MEMBER, taking('identifier'), GATES.pascalMember],
		[COLOUR, taking('identifier'), '#'],
		[NAME_LIST, (found, at, text) => {
			const span = listSpan(found, at);
			const names = namesInCode(text.slice(span[0], span[1]));
			for (const name of names) out.add('identifier', name, row.seq);
			return names.length > 0 && span;
		}, GATES.nameList],
		[CODE_MEANING, (found, at) => {
			const from = at + found.indexOf('(') + 1;
			const meaning = found.slice(from - at, -1);
			if (REMARK.test(meaning)) return false;
			out.add('name', meaning, row.seq);
			return [from, at + found.length - 1];
		}],
		[LIBRARY, taking('identifier')],
		[CODE_WORD, taking('identifier'), GATES.codeName],
		[MEDICAL_ENDING, (found, at, text) => {
			const span = medicalTerm(text, at, found);
			if (span) out.add('name', text.slice(span[0], span[1]), row.seq);
			return span ?? false;
		}]
	];
}

/** The number patterns, then codes of capitals and digits: read only in a text with a digit, each taking only a match with one. */
function numberSteps(out: Collector, row: { seq: number }): Step[] {
	const steps: Step[] = NUMBER_PATTERNS.map(([pattern, needs, accepts]): Step => [
		pattern,
		(found, at, text) => {
			const fact = found.trim();
			if (!/\d/.test(fact) || (accepts && !accepts(at, text))) return false;
			out.add('number', fact, row.seq, numberKey(fact));
			return true;
		},
		needs
	]);
	steps.push([CAPS_CODE, (found) => (out.add('identifier', found, row.seq), true)]);
	return steps;
}

/** Every fact in `sources`, once each (where first found), in the order found. */
export function extractFacts(sources: readonly FactSource[]): Fact[] {
	const out = new Collector();
	forgetPlainForms();
	const texts = sources.map(readable);
	const use = readWordUse(texts);
	const row = { seq: 0, inNames: NO_NUMBERS };
	const references = referenceSteps(out, row);
	const numbers = numberSteps(out, row);
	const rest: Step[] = [
		[MONTH_DATE, (found) => (out.add('number', found.replace(MONTH_PREPOSITION, ''), row.seq), true), HAS_MONTH],
		[WEEKDAYS, (found) => (out.add('number', found, row.seq), true), 'day']
	];
	const bare = (found: string, at: number, text: string): boolean | Span => {
		if (row.inNames.has(found)) return false;
		const start = settingStart(text, at);
		out.add('number', text.slice(start, at + found.length), row.seq);
		return [start, at + found.length];
	};
	/** The last assistant message with text so far: what a user's "Do that" accepts. */
	let said: number | null = null;
	for (let index = 0; index < sources.length && !out.full; index++) {
		const source = sources[index];
		row.seq = source.seq;
		let text = texts[index];
		for (const [pattern, take, needs] of references) text = claim(text, pattern, take, needs);
		if (/\d/.test(text)) for (const [pattern, take, needs] of numbers) text = claim(text, pattern, take, needs);
		for (const [pattern, take, needs] of rest) text = claim(text, pattern, take, needs);
		row.inNames = source.role === 'tool' ? (/['"‘“]/.test(text) ? collectQuotedNames(text, row.seq, use, out) : NO_NUMBERS) : collectNames(text, row.seq, use, out);
		if (/\d/.test(text)) claim(text, BARE_NUMBER, bare);
		if (source.role === 'user' && source.kind !== 'summary') collectInstructions(sentences(texts[index]), row.seq, out, () => (said === null ? null : proposalOf(texts[said])));
		else if (source.role === 'assistant' && texts[index].trim()) said = index;
	}
	forgetPlainForms();
	return out.facts;
}
