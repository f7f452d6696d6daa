// The recent `ctx.log` lines of each plugin, kept in memory for this tab, so the Plugins page
// (and a test kit) can show what a plugin logged without the browser's developer tools.
import { oneLine } from '../hooks/preview-value';
import { formatLogArgs } from './format-log-args';

export type LogLevel = 'info' | 'warn' | 'error';

export interface PluginLogLine {
	at: number;
	level: LogLevel;
	text: string;
}

/** How many lines each plugin keeps; older ones are dropped. */
export const LOG_LINES_PER_PLUGIN = 200;
const MAX_LINE = 2000;

/** One `ctx.log` call as a line of text, cut to MAX_LINE characters. */
export function toLogLine(at: number, level: LogLevel, args: readonly unknown[]): PluginLogLine {
	const text = formatLogArgs(args);
	return { at, level, text: text.length > MAX_LINE ? oneLine(text, MAX_LINE) : text };
}

export class PluginLogBook {
	#lines = new Map<string, PluginLogLine[]>();
	#listeners = new Set<(pluginId: string) => void>();
	readonly #now: () => number;
	readonly #keep: ((pluginId: string, line: PluginLogLine) => void) | undefined;

	/** `keep`: also told of every line (the app stores them, so they survive a reload). */
	constructor(now: () => number = () => Date.now(), keep?: (pluginId: string, line: PluginLogLine) => void) {
		this.#now = now;
		this.#keep = keep;
	}

	append(pluginId: string, level: LogLevel, args: readonly unknown[]): void {
		const line = toLogLine(this.#now(), level, args);
		this.#keep?.(pluginId, line);
		const lines = this.#lines.get(pluginId) ?? [];
		lines.push(line);
		if (lines.length > LOG_LINES_PER_PLUGIN) lines.splice(0, lines.length - LOG_LINES_PER_PLUGIN);
		this.#lines.set(pluginId, lines);
		for (const listener of this.#listeners) listener(pluginId);
	}

	/** The plugin's lines, oldest first (a copy). */
	lines(pluginId: string): PluginLogLine[] {
		return [...(this.#lines.get(pluginId) ?? [])];
	}

	clear(pluginId: string): void {
		this.#lines.delete(pluginId);
		for (const listener of this.#listeners) listener(pluginId);
	}

	/** Calls `listener` with the plugin id after each change; returns the undo. */
	subscribe(listener: (pluginId: string) => void): () => void {
		this.#listeners.add(listener);
		return () => this.#listeners.delete(listener);
	}
}
