// One short line for the hook log on what a call returned, as the app read it: context added
// (how much, a preview), a tool call blocked or its args changed, a command's output. A value
// the app cannot use comes back with a warning saying what was expected.
import { HOOK_KINDS, type HookName } from './hook-map';
import { LINE_LIMITS, oneLine, previewValue } from './preview-value';
import { MAX_INJECTED_CHARS } from './injected-limit';
import { readDirective, readInjected } from './read-results';

export interface ResultNote {
	/** Short and on one line: it is stored with the log row. */
	result?: string;
	warning?: string;
}

const PREVIEW = 60;

/** `value`: the app's own clone of what a collector or directive returned. */
export function describeHookResult(hook: HookName, value: unknown): ResultNote {
	if (HOOK_KINDS[hook] === 'observer') return describeIgnored(value);
	if (hook === 'pre_llm_call') {
		const { text, warning } = readInjected(value);
		if (text && text.length > MAX_INJECTED_CHARS) {
			return {
				result: `added context (${text.length} chars, cut to ${MAX_INJECTED_CHARS}): "${oneLine(text, PREVIEW)}"`,
				warning: `A plugin may add at most ${MAX_INJECTED_CHARS.toLocaleString('en')} characters of context to a turn; the rest of these ${text.length.toLocaleString('en')} was cut.`
			};
		}
		if (text) return { result: `added context (${text.length} chars): "${oneLine(text, PREVIEW)}"` };
		return warning ? { result: 'added nothing', warning } : { result: 'added nothing' };
	}
	const { block, args, warning } = readDirective(value);
	const note: ResultNote = block
		? { result: block.badArgs ? 'blocked: its args were not a plain object' : `blocked: ${block.reason ? oneLine(block.reason, PREVIEW) : '(no reason given)'}` }
		: args
			? { result: `changed args: ${previewValue(args, LINE_LIMITS)}` }
			: { result: 'no change' };
	return warning ? { ...note, warning } : note;
}

/** An observer's return: only its type is looked at, since reading into it can run plugin code. */
export function describeIgnored(value: unknown): ResultNote {
	if (value === undefined) return {};
	const type = value === null ? 'null' : Array.isArray(value) ? 'an array' : typeof value === 'object' ? 'an object' : `a ${typeof value}`;
	return { result: `returned ${type}; ignored (an observer's return value is not used)` };
}

/** A slash command's shown output (undefined: it showed nothing). */
export function describeCommandOutput(output: string | undefined): ResultNote {
	if (output === undefined) return { result: 'showed nothing' };
	return { result: `showed ${output.length} chars: "${oneLine(output, PREVIEW)}"` };
}

/** A tool's result as the model receives it. */
export function describeToolResult(text: string): ResultNote {
	return { result: `returned ${text.length} chars: "${oneLine(text, PREVIEW)}"` };
}
