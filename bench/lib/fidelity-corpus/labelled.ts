// How the fact-fidelity corpus is written and read: conversations whose facts are labelled
// inline, `[[path|src/server/auth.ts]]`, `[[instruction|Never deploy on [[name|Fridays]]]]`
// (labels nest), and the loader that strips the labels to plain text and records each as a
// class and its text, as a careful reader would mark the facts a later answer may need.
import type { ContextRow } from '../../../src/lib/context/context-rows';
import { FACT_CLASSES, type FactClass } from '../../../src/lib/context/extract-facts';
import { normaliseFact } from '../../../src/lib/context/normalise-fact';

/** One turn as written in the corpus, labels inline. */
export type LabelledTurn =
	| { role: 'user' | 'assistant'; text: string }
	| { role: 'call'; text: string; name: string; arguments: Record<string, unknown>; result: string };

export interface LabelledConversation {
	id: string;
	domain: string;
	turns: LabelledTurn[];
}

export interface Label {
	class: FactClass;
	/** The fact as written in the conversation. */
	text: string;
	/** The row it was first said in. */
	seq: number;
}

export interface Conversation {
	id: string;
	domain: string;
	/** The conversation as the app stores it, labels stripped. */
	rows: ContextRow[];
	/** Its labelled facts, once each (where first said). */
	labels: Label[];
}

export const user = (text: string): LabelledTurn => ({ role: 'user', text });
export const assistant = (text: string): LabelledTurn => ({ role: 'assistant', text });
/** An assistant turn that calls a tool (`text` is what it says first, often nothing), and the tool's result. */
export const call = (name: string, args: Record<string, unknown>, result: string, text = ''): LabelledTurn => ({ role: 'call', text, name, arguments: args, result });

const OPEN = '[[';
const CLOSE = ']]';
/** A label opens with its class; other brackets (a log's `[14:22:07]`) are text. */
const LABEL_START = /^\[\[([a-z]+)\|/;

/** `text` without its labels, and each label's class and plain text, in the order they close. */
export function stripLabels(text: string): { plain: string; found: Array<{ class: FactClass; text: string }> } {
	let plain = '';
	const found: Array<{ class: FactClass; text: string }> = [];
	const open: Array<{ class: FactClass; from: number }> = [];
	let at = 0;
	while (at < text.length) {
		const opening = text.startsWith(OPEN, at) ? LABEL_START.exec(text.slice(at, at + 20)) : null;
		if (opening) {
			if (!FACT_CLASSES.includes(opening[1] as FactClass)) throw new Error(`Unknown fact class "${opening[1]}" in: ${text.slice(at, at + 60)}`);
			open.push({ class: opening[1] as FactClass, from: plain.length });
			at += opening[0].length;
		} else if (text.startsWith(CLOSE, at) && open.length) {
			const label = open.pop()!;
			found.push({ class: label.class, text: plain.slice(label.from).trim() });
			at += CLOSE.length;
		} else {
			plain += text[at];
			at++;
		}
	}
	if (open.length) throw new Error(`A label is not closed in: ${text.slice(0, 80)}`);
	return { plain, found };
}

/** The conversation as rows the app would store, and its labels (the same fact labelled twice counts once). */
export function loadConversation(written: LabelledConversation): Conversation {
	const rows: ContextRow[] = [];
	const labels: Label[] = [];
	const seen = new Set<string>();
	const record = (found: Array<{ class: FactClass; text: string }>, seq: number) => {
		for (const label of found) {
			const id = `${label.class}:${normaliseFact(label.text)}`;
			if (seen.has(id)) continue;
			seen.add(id);
			labels.push({ ...label, seq });
		}
	};
	for (const turn of written.turns) {
		const seq = rows.length;
		const { plain, found } = stripLabels(turn.text);
		if (turn.role !== 'call') {
			rows.push({ seq, role: turn.role, kind: 'message', content: plain });
			record(found, seq);
			continue;
		}
		const id = `call_${written.id}_${seq}`;
		rows.push({ seq, role: 'assistant', kind: 'message', content: plain, tool_calls: [{ id, name: turn.name, arguments: JSON.stringify(turn.arguments) }] });
		record(found, seq);
		const result = stripLabels(turn.result);
		rows.push({ seq: seq + 1, role: 'tool', kind: 'message', content: result.plain, tool_call_id: id });
		record(result.found, seq + 1);
	}
	return { id: written.id, domain: written.domain, rows, labels };
}
