// The facts a later answer may need, drawn from the rows a compaction replaces: file paths,
// URLs, code identifiers (in backticks, called, or written camelCase or snake_case), numbers
// with their unit or role (ports, versions, amounts, dates), e-mail addresses, names of people
// and things, and the user's explicit instructions. No model call: patterns only, linear in the
// text, so the worker checks a 100,000-token span in milliseconds. Pure.
import { claim } from './claim-matches';
import { Collector, forgetPlainForms, plainForm } from './fact-collector';
import type { Fact, FactClass, FactSource } from './fact-types';
import { isMedicalTerm, LIBRARY, MEDICAL_TERM } from './domain-terms';
import { collectInstructions } from './find-instructions';
import { collectNames, nameKey, NOT_NAMES, readWordUse } from './find-names';
import { contentWords, normaliseFact as normaliseText } from './normalise-fact';
import { BARE_NUMBER, HAS_MONTH, MONTH_DATE, MONTH_PREPOSITION, NUMBER_PATTERNS, numberKey, WEEKDAYS } from './number-patterns';
import {
	BUNDLE_ID,
	CALLED,
	CALLED_WITH,
	CAPS_CODE,
	CODE_WORD,
	COLOUR,
	DOTTED_ID,
	EMAIL,
	FILE_NAME,
	FLAG,
	INLINE_CODE,
	IP_ADDRESS,
	IS_EMAIL,
	isPath,
	KEBAB_ID,
	LOCALHOST,
	NAME_LIST,
	NAME_VERSION,
	namesInCode,
	PATH,
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

/** Every fact in `sources`, once each (where first found), in the order found. */
export function extractFacts(sources: readonly FactSource[]): Fact[] {
	const out = new Collector();
	forgetPlainForms();
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
		text = claim(text, CALLED_WITH, (found) => isCallName(found.slice(0, found.indexOf('('))) && (out.add('identifier', found, seq), true), '(');
		text = claim(text, CALLED, (found) => {
			const name = found.slice(0, -1);
			if (!isCallName(name)) return false;
			out.add('identifier', `${name}()`, seq, plainForm(name));
			return true;
		}, '(');
		text = claim(text, FLAG, (found) => (out.add('identifier', found, seq), true), '--');
		text = claim(text, SQL_STATEMENT, (found) => (out.add('identifier', found, seq), true));
		text = claim(text, NAME_VERSION, (found) => (out.add('identifier', found, seq), true), '.');
		text = claim(text, KEBAB_ID, (found) => /\d/.test(found) && (out.add('identifier', found, seq), true), '-');
		text = claim(text, BUNDLE_ID, (found) => (out.add('identifier', found, seq), true), '.');
		text = claim(text, DOTTED_ID, (found) => (out.add('identifier', found, seq), true), '.');
		text = claim(text, COLOUR, (found) => (out.add('identifier', found, seq), true), '#');
		text = claim(text, NAME_LIST, (found) => {
			const names = namesInCode(found);
			for (const name of names) out.add('identifier', name, seq);
			return names.length > 0;
		}, ',');
		text = claim(text, LIBRARY, (found) => (out.add('identifier', found, seq), true));
		text = claim(text, CODE_WORD, (found) => (out.add('identifier', found, seq), true));
		text = claim(text, MEDICAL_TERM, (found) => isMedicalTerm(found) && (out.add('name', found, seq), true));
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
		const inNames = source.role === 'tool' ? NO_NUMBERS : collectNames(text, seq, use, out);
		if (/\d/.test(text)) claim(text, BARE_NUMBER, (found) => !inNames.has(found) && (out.add('number', found, seq), true));
		if (source.role === 'user' && source.kind !== 'summary') collectInstructions(use.sentences[index], seq, out);
	});
	forgetPlainForms();
	return out.facts;
}
