// Composes the built-in offline model's answer: a pure, deterministic function of the
// conversation, so the same conversation always gets the same Markdown back.
//
// Conventions (relied on by tests and demos), read from the last user message:
//   echo:TEXT       the answer is TEXT verbatim (one space after the colon is dropped), so
//                   browser tests can make the model emit any Markdown or hostile HTML.
//   long N          at the start of the message ("long 3000 about rivers"): an essay of about
//                   N words, at most 20000; a message of just "long" asks for 1000. Plain
//                   text, so the Message box never takes it for a slash command.
//   N words         the same, e.g. "write 5000 words about tides".
//   summarise/summarize   a bullet summary of the user's earlier messages.
//   anything else   a short reply: a quote of the message, a list, sometimes a code block.

import { writeEssay } from './offline-essay';
import type { ChatMessage } from './types';

export const MAX_LONG_WORDS = 20_000;
const DEFAULT_LONG_WORDS = 1000;

/** FNV-1a: a stable seed from text, identical in every browser and in Node. */
export function hashText(text: string): number {
	let hash = 0x811c9dc5;
	for (let i = 0; i < text.length; i++) {
		hash ^= text.charCodeAt(i);
		hash = Math.imul(hash, 0x01000193);
	}
	return hash >>> 0;
}

/** Words requested by "long [N]" or "N words", or null for an ordinary reply. */
export function requestedWordCount(text: string): number | null {
	const match = /^\s*long(?:\s+(\d+)\b|\s*$)/i.exec(text) ?? /\b(\d+)\s+words\b/i.exec(text);
	if (!match) return null;
	const words = match[1] === undefined ? DEFAULT_LONG_WORDS : Number(match[1]);
	return Math.min(MAX_LONG_WORDS, Math.max(1, words));
}

const OPENERS = [
	'Good question — here is how I would think about it.',
	'Thanks for the message. A few thoughts:',
	'Here is a short take on that.',
	'Let me break that down.'
];

const POINTS = [
	'Start from what you already know works, then change one thing at a time.',
	'Write the smallest example that shows the behaviour you care about.',
	'Keep the data and the code that changes it close together.',
	'Name things after what they mean, not after how they are stored.',
	'Measure before optimising; the slow part is rarely where you expect.',
	'Prefer a boring, well-understood tool over a clever new one.',
	'Leave the code a little clearer than you found it.'
];

const CODE_SAMPLES = [
	'```ts\nfunction greet(name: string): string {\n\treturn `Hello, ${name}!`;\n}\n```',
	'```python\ndef fibonacci(n):\n    a, b = 0, 1\n    for _ in range(n):\n' +
		'        a, b = b, a + b\n    return a\n```',
	'```sh\ngit switch -c experiment\ngit commit -am "Try the idea"\n```'
];

function pick<T>(items: T[], seed: number, salt: number): T {
	return items[(seed + salt * 7919) % items.length];
}

function shortReply(user: string, seed: number, turn: number): string {
	const firstLine = user.split('\n').find((line) => line.trim() !== '') ?? '';
	const quote = firstLine.length > 120 ? `${firstLine.slice(0, 120)}…` : firstLine;
	const points = [0, 1, 2].map((i) => `- ${POINTS[(seed + i * 3) % POINTS.length]}`);
	const wantsCode = /\b(code|function|script|example|program)\b/i.test(user) || seed % 3 === 0;
	const parts = [
		quote ? `> ${quote}` : 'You sent an empty message.',
		pick(OPENERS, seed, 1),
		points.join('\n'),
		wantsCode ? `For example:\n\n${pick(CODE_SAMPLES, seed, 2)}` : '',
		`*Reply ${turn} from the built-in offline model, written in your browser without a network.*`
	];
	return parts.filter(Boolean).join('\n\n');
}

function summary(messages: ChatMessage[]): string {
	const earlier = messages.filter((m) => m.role === 'user').slice(0, -1);
	if (earlier.length === 0) return '## Summary\n\nNothing has been discussed yet.';
	const lines = earlier.map(
		(m) => `- The user said: ${m.content.replace(/\s+/g, ' ').slice(0, 80)}`
	);
	return `## Summary\n\n${lines.join('\n')}`;
}

/** `turn`: which of the session's user messages this answers (see ChatRequest.turn); by default, the count of user messages given. */
export function composeOfflineAnswer(messages: ChatMessage[], turn?: number): string {
	const users = messages.filter((message) => message.role === 'user');
	const last = users[users.length - 1]?.content ?? '';
	if (last.startsWith('echo:')) return last.slice(5).replace(/^ /, '');
	const seed = hashText(messages.map((m) => `${m.role}\u0000${m.content}`).join('\u0001'));
	const words = requestedWordCount(last);
	if (words !== null) return writeEssay(words, seed);
	if (/\bsummari[sz]e\b/i.test(last)) return summary(messages);
	return shortReply(last, seed, turn ?? users.length);
}
