// Palimpsest plugin test kit. Generated from src/lib/test-kit by `npm run build:kit`:
// the app's own hook bus, plugin context and command and tool registries, with storage in
// memory. Types: plugin-test-kit.d.ts. Guide: docs/plugins.md, "Test your plugin".
// src/lib/hooks/plain-data.ts
/** The most any one value from a plugin may hold (a returned value, a stored value, a log line's arguments). */
var MAX_VALUE_BYTES = 1048576;
var DEFAULT_DEPTH = 64;
var SLOT = 8;
var ENTRY = 16;
/** Checks `value` against `limits`; the reason names the first thing that is not accepted. */
function checkPlainData(value, limits) {
	const walk = new Walk(limits.maxBytes, limits.maxDepth ?? DEFAULT_DEPTH);
	const reason = walk.visit(value, 0);
	return reason === null ? {
		ok: true,
		bytes: walk.bytes
	} : {
		ok: false,
		reason
	};
}
/** About how many bytes `value` holds once stored (plain data assumed; anything else counts as one slot). */
function measurePlainData(value) {
	const check = checkPlainData(value, {
		maxBytes: Number.POSITIVE_INFINITY,
		maxDepth: 1e4
	});
	return check.ok ? check.bytes : SLOT;
}
/** "1.2 MB", "340 KB", "12 bytes": for limits and usage in messages. */
function formatBytes(bytes) {
	if (bytes >= 1024 ** 3) return `${(bytes / 1024 ** 3).toFixed(2).replace(/\.?0+$/, "")} GB`;
	if (bytes >= 1048576) return `${(bytes / 1048576).toFixed(1).replace(/\.0$/, "")} MB`;
	if (bytes >= 1024) return `${Math.round(bytes / 1024)} KB`;
	return `${bytes} bytes`;
}
var Walk = class {
	bytes = 0;
	#seen = /* @__PURE__ */ new Set();
	#max;
	#depth;
	constructor(maxBytes, maxDepth) {
		this.#max = maxBytes;
		this.#depth = maxDepth;
	}
	/** null when accepted so far; otherwise why not. */
	visit(value, depth) {
		const size = this.#leafSize(value);
		if (size !== null) return this.#add(size);
		if (typeof value !== "object" || value === null) return `a ${typeof value} is not plain data`;
		if (this.#seen.has(value)) return this.#add(SLOT);
		this.#seen.add(value);
		if (depth >= this.#depth) return `it is nested more than ${this.#depth} levels deep`;
		return this.#visitObject(value, depth + 1);
	}
	#add(size) {
		this.bytes += size;
		return this.bytes > this.#max ? `it is over ${formatBytes(this.#max)}` : null;
	}
	#leafSize(value) {
		switch (typeof value) {
			case "string": return ENTRY + value.length * 2;
			case "number":
			case "boolean":
			case "undefined": return SLOT;
			case "bigint": return ENTRY + Math.ceil(value.toString(16).length / 2);
			case "object":
				if (value === null) return SLOT;
				if (value instanceof Date) return ENTRY;
				if (value instanceof RegExp) return ENTRY + value.source.length * 2;
				if (value instanceof ArrayBuffer) return ENTRY + value.byteLength;
				if (ArrayBuffer.isView(value)) return ENTRY + value.byteLength;
				return null;
			default: return null;
		}
	}
	#visitObject(value, depth) {
		if (Array.isArray(value)) {
			const failed = this.#add(ENTRY + value.length * SLOT);
			if (failed) return failed;
			for (const item of value) {
				const reason = this.visit(item, depth);
				if (reason) return reason;
			}
			return null;
		}
		if (value instanceof Map) {
			for (const [key, item] of value) {
				const reason = this.visit(key, depth) ?? this.visit(item, depth);
				if (reason) return reason;
			}
			return this.#add(ENTRY);
		}
		if (value instanceof Set) {
			for (const item of value) {
				const reason = this.visit(item, depth);
				if (reason) return reason;
			}
			return this.#add(ENTRY);
		}
		const proto = Object.getPrototypeOf(value);
		if (proto !== Object.prototype && proto !== null) return `${describeKind(value)} is not plain data`;
		const failed = this.#add(ENTRY);
		if (failed) return failed;
		for (const key of Object.keys(value)) {
			if (key === "__proto__") return "a key named \"__proto__\" is not accepted";
			const reason = this.#add(ENTRY + key.length * 2) ?? this.visit(value[key], depth);
			if (reason) return reason;
		}
		return null;
	}
};
function describeKind(value) {
	const name = Object.prototype.toString.call(value).slice(8, -1);
	return name === "Object" ? "an object with a class" : `a ${name}`;
}
// src/lib/hooks/copy-result.ts
function copyResult(value) {
	let copy;
	try {
		copy = structuredClone(value);
	} catch (error) {
		const reason = error instanceof Error ? error.message : String(error);
		throw new Error(`returned a value that is not plain data (${reason})`, { cause: error });
	}
	const check = checkPlainData(copy, { maxBytes: MAX_VALUE_BYTES });
	if (!check.ok) throw new Error(`returned a value that was refused: ${check.reason}`);
	return copy;
}
// src/lib/hooks/closest-name.ts
/** The candidate within a few edits of `name`, or undefined when nothing is close. */
function closestName(name, candidates) {
	const wanted = name.toLowerCase();
	let best;
	let bestDistance = 1e400;
	for (const candidate of candidates) {
		const distance = editDistance(wanted, candidate);
		if (distance < bestDistance) [best, bestDistance] = [candidate, distance];
	}
	return isCloseEnough(wanted, bestDistance) ? best : void 0;
}
/** Beyond a third of the word (and two edits), a "suggestion" is more confusing than none. */
function isCloseEnough(name, distance) {
	return distance <= Math.max(2, Math.ceil(name.length / 3));
}
function editDistance(a, b) {
	let previous = Array.from({ length: b.length + 1 }, (_, j) => j);
	for (let i = 1; i <= a.length; i++) {
		const current = [i];
		for (let j = 1; j <= b.length; j++) {
			const substitution = previous[j - 1] + (a[i - 1] === b[j - 1] ? 0 : 1);
			current[j] = Math.min(previous[j] + 1, current[j - 1] + 1, substitution);
		}
		previous = current;
	}
	return previous[b.length];
}
// src/lib/hooks/hook-map.ts
var HOOK_KINDS = {
	on_session_start: "observer",
	on_session_end: "observer",
	on_session_finalize: "observer",
	on_session_reset: "observer",
	pre_llm_call: "collector",
	post_llm_call: "observer",
	pre_tool_call: "directive",
	post_tool_call: "observer",
	post_compaction: "observer",
	on_session_delete: "observer"
};
var HOOK_NAMES = Object.freeze(Object.keys(HOOK_KINDS));
function isHookName(name) {
	return typeof name === "string" && Object.hasOwn(HOOK_KINDS, name);
}
/** Refuses names from untyped plugins with an error that lists what would have worked. */
function assertHookName(name) {
	if (isHookName(name)) return;
	let message = `Unknown hook ${typeof name === "string" ? JSON.stringify(name) : String(name)}. Valid hooks: ${HOOK_NAMES.join(", ")}.`;
	const suggestion = typeof name === "string" ? closestName(name, HOOK_NAMES) : void 0;
	if (suggestion) message += ` Did you mean "${suggestion}"?`;
	throw new Error(message);
}
/** Refuses a name that is no hook of this kind: dispatching it would call no callback, or the wrong ones. */
function assertHookKind(name, kind) {
	assertHookName(name);
	const actual = HOOK_KINDS[name];
	const article = (k) => k === "observer" ? "an" : "a";
	if (actual !== kind) throw new Error(`Hook "${name}" is ${article(actual)} ${actual} hook, not ${article(kind)} ${kind} hook.`);
}
// src/lib/hooks/preview-value.ts
var DETAIL_LIMITS = {
	maxChars: 6e3,
	maxString: 400,
	maxItems: 20,
	indent: true
};
var LINE_LIMITS = {
	maxChars: 100,
	maxString: 60,
	maxItems: 6,
	indent: false
};
/** Renders structured-cloneable data as JSON-like text within `limits` (cycles and all). */
function previewValue(value, limits = DETAIL_LIMITS) {
	const text = render(value, limits, 0, /* @__PURE__ */ new Set());
	return text.length <= limits.maxChars ? text : `${text.slice(0, limits.maxChars - 1)}…`;
}
/** Text on one line, whitespace collapsed, cut to `max` characters. */
function oneLine(text, max) {
	const flat = text.replace(/\s+/g, " ").trim();
	return flat.length <= max ? flat : `${flat.slice(0, max - 1)}…`;
}
function render(value, limits, depth, seen) {
	if (value === void 0) return "undefined";
	if (value === null || typeof value === "boolean" || typeof value === "number") return String(value);
	if (typeof value === "bigint") return `${value}n`;
	if (typeof value === "string") {
		const cut = value.length > limits.maxString ? `${value.slice(0, limits.maxString - 1)}…` : value;
		return JSON.stringify(cut) + (value.length > limits.maxString ? ` (${value.length} chars)` : "");
	}
	if (typeof value !== "object") return `[${typeof value}]`;
	if (seen.has(value)) return "[circular]";
	if (value instanceof Date) return `Date(${Number.isNaN(value.getTime()) ? "invalid" : value.toISOString()})`;
	if (depth > 6) return Array.isArray(value) ? `[… ${value.length} items]` : "{…}";
	seen.add(value);
	try {
		if (Array.isArray(value)) return list("[", "]", value.map((item) => item), (item) => render(item, limits, depth + 1, seen), limits, depth);
		if (value instanceof Map) return `Map ${list("{", "}", [...value.entries()], ([k, v]) => `${render(k, limits, depth + 1, seen)} => ${render(v, limits, depth + 1, seen)}`, limits, depth)}`;
		if (value instanceof Set) return `Set ${list("[", "]", [...value], (item) => render(item, limits, depth + 1, seen), limits, depth)}`;
		return list("{", "}", Object.entries(value), ([k, v]) => `${/^[A-Za-z_$][\w$]*$/.test(k) ? k : JSON.stringify(k)}: ${render(v, limits, depth + 1, seen)}`, limits, depth);
	} finally {
		seen.delete(value);
	}
}
function list(open, close, items, show, limits, depth) {
	if (!items.length) return `${open}${close}`;
	const shown = items.slice(0, limits.maxItems).map(show);
	if (items.length > limits.maxItems) shown.push(`… ${items.length - limits.maxItems} more`);
	if (!limits.indent) return `${open} ${shown.join(", ")} ${close}`;
	const pad = "  ".repeat(depth + 1);
	return `${open}\n${shown.map((s) => pad + s).join(",\n")}\n${"  ".repeat(depth)}${close}`;
}
// src/lib/hooks/injected-limit.ts
/** The most characters of context one plugin may add to one turn; the rest is cut, with a note. */
var MAX_INJECTED_CHARS = 16e3;
// src/lib/hooks/read-results.ts
var INJECTED_EXPECTED = "a string, { context: string }, or nothing";
function readInjected(value) {
	if (value === void 0 || value === null) return {};
	if (typeof value === "string") return value.trim() ? { text: value.trim() } : {};
	if (isRecord(value)) {
		if (!("context" in value)) return { warning: `Expected ${INJECTED_EXPECTED}; got ${describeShape(value)}. Nothing was added.` };
		const context = value.context;
		if (typeof context === "string") return context.trim() ? { text: context.trim() } : {};
		if (context === void 0 || context === null) return {};
		return { warning: `Expected context to be a string; got ${describeShape(context)}. Nothing was added.` };
	}
	return { warning: `Expected ${INJECTED_EXPECTED}; got ${describeShape(value)}. Nothing was added.` };
}
var DIRECTIVE_FIELDS = /* @__PURE__ */ new Set([
	"block",
	"reason",
	"args"
]);
var DIRECTIVE_EXPECTED = "{ block: true, reason }, { args }, or nothing";
function readDirective(value) {
	if (value === void 0 || value === null) return {};
	if (!isRecord(value)) return { warning: `Expected ${DIRECTIVE_EXPECTED}; got ${describeShape(value)}. The call was let through.` };
	const unknown = Object.keys(value).filter((key) => !DIRECTIVE_FIELDS.has(key));
	const unknownNote = unknown.length ? `Unknown field${unknown.length > 1 ? "s" : ""} ${unknown.map((k) => JSON.stringify(k)).join(", ")} (expected block, reason, args) ${unknown.length > 1 ? "were" : "was"} ignored.` : void 0;
	if (value.block === true) {
		const reason = typeof value.reason === "string" && value.reason ? value.reason : void 0;
		const badReason = value.reason !== void 0 && typeof value.reason !== "string" ? `reason should be a string; got ${describeShape(value.reason)}.` : void 0;
		return {
			block: { reason },
			...joinWarnings(badReason, unknownNote)
		};
	}
	const badBlock = value.block !== void 0 && value.block !== false ? `block must be true to block; got ${describeShape(value.block)}, so the call was not blocked.` : void 0;
	if (value.args === void 0) return joinWarnings(badBlock, unknownNote);
	if (!isRecord(value.args)) return {
		block: { badArgs: true },
		warning: `args must be a plain object; got ${describeShape(value.args)}. The tool call was blocked.`
	};
	return {
		args: value.args,
		...joinWarnings(badBlock, unknownNote)
	};
}
function joinWarnings(...parts) {
	const text = parts.filter(Boolean).join(" ");
	return text ? { warning: text } : {};
}
/** A short phrase for a value's shape in a warning: `the number 42`, `an object with keys text`. */
function describeShape(value) {
	if (value === null) return "null";
	if (value === void 0) return "undefined";
	if (typeof value === "string") return `the string ${JSON.stringify(value.length > 40 ? `${value.slice(0, 39)}…` : value)}`;
	if (typeof value === "number" || typeof value === "boolean" || typeof value === "bigint") return `the ${typeof value} ${String(value)}`;
	if (Array.isArray(value)) return `an array of ${value.length}`;
	if (isRecord(value)) {
		const keys = Object.keys(value);
		return keys.length ? `an object with key${keys.length > 1 ? "s" : ""} ${keys.slice(0, 5).join(", ")}${keys.length > 5 ? ", …" : ""}` : "an empty object";
	}
	return `a ${typeof value}`;
}
function isRecord(value) {
	return typeof value === "object" && value !== null && !Array.isArray(value);
}
// src/lib/hooks/describe-result.ts
var PREVIEW = 60;
/** `value`: the app's own clone of what a collector or directive returned. */
function describeHookResult(hook, value) {
	if (HOOK_KINDS[hook] === "observer") return describeIgnored(value);
	if (hook === "pre_llm_call") {
		const { text, warning } = readInjected(value);
		if (text && text.length > 16e3) return {
			result: `added context (${text.length} chars, cut to ${MAX_INJECTED_CHARS}): "${oneLine(text, PREVIEW)}"`,
			warning: `A plugin may add at most ${MAX_INJECTED_CHARS.toLocaleString("en")} characters of context to a turn; the rest of these ${text.length.toLocaleString("en")} was cut.`
		};
		if (text) return { result: `added context (${text.length} chars): "${oneLine(text, PREVIEW)}"` };
		return warning ? {
			result: "added nothing",
			warning
		} : { result: "added nothing" };
	}
	const { block, args, warning } = readDirective(value);
	const note = block ? { result: block.badArgs ? "blocked: its args were not a plain object" : `blocked: ${block.reason ? oneLine(block.reason, PREVIEW) : "(no reason given)"}` } : args ? { result: `changed args: ${previewValue(args, LINE_LIMITS)}` } : { result: "no change" };
	return warning ? {
		...note,
		warning
	} : note;
}
/** An observer's return: only its type is looked at, since reading into it can run plugin code. */
function describeIgnored(value) {
	if (value === void 0) return {};
	return { result: `returned ${value === null ? "null" : Array.isArray(value) ? "an array" : typeof value === "object" ? "an object" : `a ${typeof value}`}; ignored (an observer's return value is not used)` };
}
/** A slash command's shown output (undefined: it showed nothing). */
function describeCommandOutput(output) {
	if (output === void 0) return { result: "showed nothing" };
	return { result: `showed ${output.length} chars: "${oneLine(output, PREVIEW)}"` };
}
/** A tool's result as the model receives it. */
function describeToolResult(text) {
	return { result: `returned ${text.length} chars: "${oneLine(text, PREVIEW)}"` };
}
// src/lib/hooks/run-hook.ts
/** How long a callback that timed out is left out before it gets another chance. */
var SUPPRESS_AFTER_TIMEOUT_MS = 6e4;
function runHook(reg, payload, ctx) {
	if (HOOK_KINDS[reg.hook] === "observer") return runPluginCall(reg, () => reg.callback(payload), ctx, {
		read: () => void 0,
		describe: (_kept, raw) => describeIgnored(raw)
	});
	return runPluginCall(reg, () => reg.callback(payload), ctx, {
		read: copyResult,
		describe: (value) => describeHookResult(reg.hook, value)
	});
}
/** Calls plugin code through the choke point; `read` runs on its settled value, inside the guard. */
async function runPluginCall(reg, call, ctx, options = {}) {
	const read = options.read ?? ((value) => value);
	const at = ctx.now();
	const callId = ctx.callId?.();
	const log = (outcome, extra = {}, detail = {}) => safeRecord(ctx, {
		at,
		hook: reg.hook,
		plugin_id: reg.plugin_id,
		duration_ms: Math.max(0, ctx.now() - at),
		outcome,
		summary: ctx.summary,
		...extra,
		...ctx.test ? { test: true } : {},
		...callId === void 0 ? {} : { call_id: callId },
		detail: {
			...payloadDetail(ctx, options.payload),
			...detail
		}
	});
	if (at < reg.suppressedUntil) {
		const error = `skipped: timed out less than ${SUPPRESS_AFTER_TIMEOUT_MS / 1e3} s ago`;
		log("skipped", { error });
		return {
			outcome: "skipped",
			error
		};
	}
	try {
		const settled = await callWithTimeout(call, ctx.timeoutMs);
		if (settled.timedOut) {
			reg.suppressedUntil = ctx.now() + SUPPRESS_AFTER_TIMEOUT_MS;
			const error = `timed out after ${ctx.timeoutMs / 1e3} s`;
			ctx.logger.warn(`[hooks] plugin "${reg.plugin_id}" ${error} in ${reg.hook}; skipped for 60 s`);
			log("timeout", { error });
			try {
				ctx.onTimeout?.(reg);
			} catch (failure) {
				ctx.logger.warn("[hooks] timeout handler failed", failure);
			}
			return {
				outcome: "timeout",
				error,
				timeoutMs: ctx.timeoutMs
			};
		}
		const value = read(settled.value);
		const note = describeSafely(options.describe, value, settled.value);
		log(note.warning ? "warning" : "ok", note, value === void 0 ? {} : { value: previewSafely(value) });
		return {
			outcome: "ok",
			value
		};
	} catch (thrown) {
		const error = thrown instanceof Error ? thrown.message : String(thrown);
		ctx.logger.warn(`[hooks] plugin "${reg.plugin_id}" failed in ${reg.hook}: ${error}`, thrown);
		log("error", { error }, { stack: stackOf(thrown) });
		return {
			outcome: "error",
			error
		};
	}
}
function payloadDetail(ctx, payload) {
	const text = payload === void 0 ? ctx.payloadDetail?.() : previewSafely(payload);
	return text === void 0 ? {} : { payload: text };
}
function previewSafely(value) {
	try {
		return previewValue(value);
	} catch {
		return;
	}
}
function describeSafely(describe, kept, raw) {
	try {
		return describe?.(kept, raw) ?? {};
	} catch {
		return {};
	}
}
function stackOf(thrown) {
	try {
		return thrown instanceof Error && typeof thrown.stack === "string" ? thrown.stack : void 0;
	} catch {
		return;
	}
}
function callWithTimeout(call, timeoutMs) {
	const running = new Promise((resolve) => resolve(call()));
	if (timeoutMs <= 0) return running.then((value) => ({
		timedOut: false,
		value
	}));
	return new Promise((resolve, reject) => {
		const timer = setTimeout(() => resolve({ timedOut: true }), timeoutMs);
		running.then((value) => {
			clearTimeout(timer);
			resolve({
				timedOut: false,
				value
			});
		}, (error) => {
			clearTimeout(timer);
			reject(error);
		});
	});
}
function safeRecord(ctx, entry) {
	try {
		ctx.record(entry);
	} catch (error) {
		ctx.logger.warn("[hooks] hook log sink failed", error);
	}
}
// src/lib/commands/builtin-names.ts
var BUILTIN_NAMES = [
	"help",
	"new",
	"reset",
	"compress",
	"exit",
	"archive",
	"title",
	"usage"
];
// src/lib/commands/parse-command.ts
var COMMAND_NAME = /^[a-z0-9][a-z0-9_-]{0,39}$/;
/** The command in a message, or null when the message is not a command ("/ x", "//x", text). */
function parseCommand(text) {
	const match = /^\/([A-Za-z0-9][A-Za-z0-9_-]*)(?:\s+([\s\S]*))?$/.exec(text.trim());
	if (!match) return null;
	return {
		name: match[1].toLowerCase(),
		args: (match[2] ?? "").trim()
	};
}
/** Names that start like `name` or are a couple of edits away, best first. */
function closeMatches(name, names, limit = 3) {
	return names.map((candidate) => ({
		candidate,
		score: candidate.startsWith(name) || name.startsWith(candidate) ? 0 : editDistance(name, candidate)
	})).filter(({ score }) => isCloseEnough(name, score)).sort((a, b) => a.score - b.score || a.candidate.localeCompare(b.candidate)).slice(0, limit).map(({ candidate }) => candidate);
}
// src/lib/commands/command-registry.ts
var CommandRegistry = class {
	#entries = /* @__PURE__ */ new Map();
	/** Names no plugin may register: every built-in, whether or not it exists yet. */
	#reserved = new Set(BUILTIN_NAMES);
	#caller;
	constructor(caller) {
		this.#caller = caller;
	}
	addBuiltin(info, run) {
		this.#entries.set(info.name, {
			...info,
			plugin_id: null,
			run
		});
	}
	add(pluginId, name, handler, meta) {
		if (!COMMAND_NAME.test(name)) throw new Error(`Command names are lowercase letters, digits, "_" and "-" (up to 40); "${name}" is not.`);
		if (this.#reserved.has(name)) throw new Error(`"/${name}" is a built-in command; choose another name.`);
		const owner = this.#entries.get(name);
		if (owner) throw new Error(`"/${name}" is already registered by plugin "${owner.plugin_id}".`);
		if (typeof handler !== "function") throw new TypeError(`Command "/${name}" needs a handler function.`);
		const target = {
			plugin_id: pluginId,
			hook: `/${name}`,
			suppressedUntil: -1e400
		};
		const entry = {
			name,
			description: String(meta.description ?? ""),
			args_hint: String(meta.args_hint ?? ""),
			plugin_id: pluginId,
			run: (args, invocation) => this.#runPlugin(target, handler, args, invocation)
		};
		this.#entries.set(name, entry);
		return () => {
			if (this.#entries.get(name) === entry) this.#entries.delete(name);
		};
	}
	list() {
		return [...this.#entries.values()].map(({ name, description, args_hint, plugin_id }) => ({
			name,
			description,
			args_hint,
			plugin_id
		})).sort((a, b) => a.name.localeCompare(b.name));
	}
	has(name) {
		return this.#entries.has(name);
	}
	/** Runs the command in `text`; throws with close matches when it does not exist. */
	async execute(text, invocation) {
		const parsed = parseCommand(text);
		if (!parsed) throw new Error("That is not a command. Commands look like /name followed by arguments.");
		const entry = this.#entries.get(parsed.name);
		if (!entry) {
			const near = closeMatches(parsed.name, [...this.#entries.keys()]);
			const hint = near.length ? ` Did you mean ${near.map((n) => `/${n}`).join(", ")}?` : " Type /help to see the commands.";
			throw new Error(`Unknown command /${parsed.name}.${hint}`);
		}
		return entry.run(parsed.args, invocation);
	}
	async #runPlugin(target, handler, args, invocation) {
		const copy = structuredClone(invocation);
		const result = await this.#caller.callPlugin(target, () => handler(args, copy), {
			summary: `session_id=${invocation.session_id} args=(${args.length} chars)`,
			read: readOutput,
			describe: (kept) => describeCommandOutput(kept.output),
			payload: {
				raw_args: args,
				context: invocation
			}
		});
		const name = target.hook;
		if (result.outcome === "ok") return result.value;
		if (result.outcome === "timeout") throw new Error(`${name} did not answer within ${result.timeoutMs / 1e3} s; it is skipped for the next ${SUPPRESS_AFTER_TIMEOUT_MS / 1e3} s.`);
		if (result.outcome === "skipped") throw new Error(`${name} is skipped for now: it did not answer in time less than ${SUPPRESS_AFTER_TIMEOUT_MS / 1e3} s ago.`);
		throw new Error(`${name} failed: ${result.error}`);
	}
};
/** What a handler returned, as command output: text as it is, other values as JSON. */
function readOutput(value) {
	const copy = copyResult(value);
	if (copy === void 0 || copy === null) return {};
	return { output: typeof copy === "string" ? copy : JSON.stringify(copy, null, 2) };
}
// src/lib/hooks/freeze-payload.ts
/** A structured clone, frozen all the way down. Throws DataCloneError on functions etc. */
function freezeClone(value) {
	return deepFreeze(structuredClone(value));
}
function deepFreeze(value) {
	if (value === null || typeof value !== "object" || ArrayBuffer.isView(value)) return value;
	if (Object.isFrozen(value)) return value;
	Object.freeze(value);
	if (value instanceof Map) for (const [key, item] of value) {
		deepFreeze(key);
		deepFreeze(item);
	}
	else if (value instanceof Set) for (const item of value) deepFreeze(item);
	else for (const key of Reflect.ownKeys(value)) deepFreeze(value[key]);
	return value;
}
// src/lib/hooks/summarize-payload.ts
var MAX_SUMMARY = 160;
var MAX_VALUE = 48;
var CONTENT_FIELDS = /* @__PURE__ */ new Set([
	"user_message",
	"assistant_response",
	"conversation_history",
	"result"
]);
function summarizePayload(payload) {
	if (payload === null || typeof payload !== "object") return "";
	const parts = [];
	for (const [key, value] of Object.entries(payload)) {
		const shown = CONTENT_FIELDS.has(key) ? describeSize(value) : describeValue$1(value);
		if (shown !== void 0) parts.push(`${key}=${shown}`);
	}
	const summary = parts.join(" ");
	return summary.length <= MAX_SUMMARY ? summary : `${summary.slice(0, 159)}…`;
}
function describeValue$1(value) {
	if (typeof value === "string") return value.length <= MAX_VALUE ? value : `${value.slice(0, 47)}…`;
	if (typeof value === "number" || typeof value === "boolean" || value === null) return String(value);
	if (Array.isArray(value)) return `[${value.length}]`;
}
function describeSize(value) {
	if (typeof value === "string") return `(${value.length} chars)`;
	if (Array.isArray(value)) return `[${value.length}]`;
}
/**
* With the timeout off, how long a collector or directive waits for its plugin's earlier
* observer events when a hung observer holds the queue: never forever.
*/
var CATCH_UP_LIMIT_WITHOUT_TIMEOUT_MS = 3e4;
/** Waits for `work`, or `ms` at most (0 = no limit). */
function waitAtMost(work, ms) {
	if (ms <= 0) return work.then(() => {});
	let timer;
	const limit = new Promise((resolve) => timer = setTimeout(resolve, ms));
	return Promise.race([work.then(() => {}), limit]).finally(() => clearTimeout(timer));
}
/** Seconds from the setting to milliseconds: default 30, 0 (or less) = off, at most 600. */
function resolveTimeoutMs(seconds) {
	if (typeof seconds !== "number" || Number.isNaN(seconds)) return 3e4;
	if (seconds <= 0) return 0;
	return Math.min(seconds, 600) * 1e3;
}
/** How long a plugin's collector or directive waits to catch up on its queued events. */
function catchUpLimitMs(timeoutMs) {
	return timeoutMs > 0 ? timeoutMs : CATCH_UP_LIMIT_WITHOUT_TIMEOUT_MS;
}
// src/lib/hooks/same-args.ts
/** The arguments as the JSON a tool receives, each object's keys sorted. */
function canonicalArgs(args) {
	return JSON.stringify(args, (_key, value) => value && typeof value === "object" && !Array.isArray(value) ? Object.fromEntries(Object.entries(value).sort(([a], [b]) => a < b ? -1 : a > b ? 1 : 0)) : value);
}
/** Arguments that cannot be written as JSON (a cycle, a BigInt) are the same as nothing. */
function sameArgs(a, b) {
	try {
		return canonicalArgs(a) === canonicalArgs(b);
	} catch {
		return false;
	}
}
// src/lib/hooks/dispatch-results.ts
/** The texts joined with blank lines, ready to append to the user message copy. */
function joinInjected(items) {
	return items.map((item) => item.text).join("\n\n");
}
/**
* `concurrent`: plugins are called without waiting for one another (see HookBusOptions); each
* plugin's own callbacks still run in turn, and the texts keep the registrations' order.
*/
async function collectInjected(regs, payload, run, signal, concurrent = false) {
	const texts = /* @__PURE__ */ new Map();
	await eachPluginInTurn(regs, concurrent, async (reg) => {
		if (signal?.aborted) return false;
		if (!reg.active) return true;
		const result = await run(reg, payload);
		const text = result?.outcome === "ok" ? readInjected(result.value).text : void 0;
		if (text) texts.set(reg, text);
		return true;
	});
	return capPerPlugin(regs.flatMap((reg) => {
		const text = texts.get(reg);
		return text ? [{
			plugin_id: reg.plugin_id,
			text
		}] : [];
	}));
}
/** Each plugin's texts, in order, up to MAX_INJECTED_CHARS in all; a text past it is cut or left out. */
function capPerPlugin(items) {
	const used = /* @__PURE__ */ new Map();
	return items.flatMap((item) => {
		const left = MAX_INJECTED_CHARS - (used.get(item.plugin_id) ?? 0);
		used.set(item.plugin_id, (used.get(item.plugin_id) ?? 0) + item.text.length);
		if (item.text.length <= left) return [item];
		return left > 0 ? [{
			...item,
			text: item.text.slice(0, left),
			cut_from: item.text.length
		}] : [];
	});
}
/**
* Runs `step` for each registration in order, waiting for each. With `concurrent`, each
* plugin's registrations form their own sequence and the plugins' sequences run at once. A
* step that returns false ends its sequence (all of them, when not concurrent).
*/
async function eachPluginInTurn(regs, concurrent, step, done = () => {}) {
	const sequences = concurrent ? groupByPlugin(regs) : [regs];
	await Promise.all(sequences.map(async (sequence) => {
		for (const [i, reg] of sequence.entries()) {
			if (!await step(reg)) break;
			if (sequence[i + 1]?.plugin_id !== reg.plugin_id) done(reg.plugin_id);
		}
	}));
}
function groupByPlugin(regs) {
	const groups = /* @__PURE__ */ new Map();
	for (const reg of regs) {
		const group = groups.get(reg.plugin_id);
		if (group) group.push(reg);
		else groups.set(reg.plugin_id, [reg]);
	}
	return [...groups.values()];
}
async function decideToolCall(regs, payload, run) {
	let args;
	const rewrittenBy = [];
	for (const reg of regs) {
		if (!reg.active) continue;
		const result = await run(reg, args ? freezeClone({
			...payload,
			args
		}) : payload);
		if (!result) continue;
		if (result.outcome !== "ok") return blocked(reg, failureReason(reg, result.outcome, result.error));
		const reading = readDirective(result.value);
		if (reading.block) return blocked(reg, reading.block.badArgs ? `Plugin "${reg.plugin_id}" returned args that are not a plain object; the tool call was blocked.` : reading.block.reason ?? `Blocked by plugin "${reg.plugin_id}".`);
		if (reading.args) {
			if (!sameArgs(reading.args, args ?? payload.args) && !rewrittenBy.includes(reg.plugin_id)) rewrittenBy.push(reg.plugin_id);
			args = reading.args;
		}
	}
	if (!args) return { block: false };
	return rewrittenBy.length ? {
		block: false,
		args,
		rewritten_by: rewrittenBy
	} : {
		block: false,
		args
	};
}
function blocked(reg, reason) {
	return {
		block: true,
		reason,
		plugin_id: reg.plugin_id
	};
}
function failureReason(reg, outcome, error) {
	const what = outcome === "timeout" ? "timed out" : outcome === "skipped" ? "is paused after a timeout" : `failed (${error})`;
	return `Plugin "${reg.plugin_id}" ${what} in pre_tool_call, so the tool call was blocked.`;
}
// src/lib/hooks/hook-bus.ts
var HookBus = class {
	#registrations = [];
	#seq = 0;
	#loadOrder = [];
	#observerQueue = Promise.resolve();
	/** Per plugin: settles once it has received every observer event raised so far. */
	#caughtUp = /* @__PURE__ */ new Map();
	/** Settles when a registration is removed, so a hung callback stops holding the queue. */
	#removed = /* @__PURE__ */ new WeakMap();
	#summaries = /* @__PURE__ */ new WeakMap();
	#details = /* @__PURE__ */ new WeakMap();
	#firstSeen = [];
	#calls = 0;
	#callPrefix = Math.random().toString(36).slice(2, 8);
	#timeoutSeconds;
	#record;
	#now;
	#logger;
	#onTimeout;
	#concurrent;
	constructor(options = {}) {
		this.#timeoutSeconds = options.timeoutSeconds ?? (() => 30);
		this.#record = options.record ?? (() => {});
		this.#now = options.now ?? (() => Date.now());
		this.#logger = options.logger ?? console;
		this.#onTimeout = options.onTimeout;
		this.#concurrent = options.concurrentPlugins ?? false;
	}
	register(pluginId, name, callback) {
		assertHookName(name);
		if (typeof callback !== "function") throw new TypeError(`Hook "${name}" from plugin "${pluginId}" needs a function, got ${typeof callback}.`);
		if (!this.#firstSeen.includes(pluginId)) this.#firstSeen.push(pluginId);
		const reg = {
			plugin_id: pluginId,
			hook: name,
			callback,
			seq: this.#seq++,
			active: true,
			suppressedUntil: -1e400
		};
		this.#registrations.push(reg);
		return () => this.#remove((r) => r === reg);
	}
	/** Undoes everything the plugin registered (disable, reload, remove). */
	unregisterPlugin(pluginId) {
		this.#remove((r) => r.plugin_id === pluginId);
		this.#caughtUp.delete(pluginId);
		this.#firstSeen = this.#firstSeen.filter((id) => id !== pluginId);
	}
	/** Plugin load order; plugins not listed follow, in order of their first registration. */
	setPluginOrder(ids) {
		this.#loadOrder = [...ids];
	}
	listRegistrations() {
		return this.#ordered().map((r) => ({
			plugin_id: r.plugin_id,
			hook: r.hook
		}));
	}
	/**
	* Observers: each callback awaited in turn, results ignored, failures logged and skipped.
	* Dispatches queue behind one another, so callers need not wait (a slow plugin never holds
	* up the conversation) and plugins still see events in the order they happened. An event
	* goes to the callbacks registered when it was raised. Throws on a name that is no observer.
	*/
	notify(name, payload) {
		assertHookKind(name, "observer");
		const base = this.#snapshot(name, payload);
		if (base === void 0) return this.#observerQueue;
		return this.#notify(name, base, {});
	}
	#notify(name, base, options) {
		const regs = this.#ordered(name, options.only);
		if (!regs.length) this.#recordUnheard(name, base, options);
		const delivered = /* @__PURE__ */ new Map();
		for (const reg of regs) if (!delivered.has(reg.plugin_id)) delivered.set(reg.plugin_id, this.#expectEvent(reg.plugin_id));
		const dispatch = this.#observerQueue.then(async () => {
			try {
				await eachPluginInTurn(regs, this.#concurrent, async (reg) => {
					if (reg.active) await Promise.race([this.#run(reg, base, options), this.#whenRemoved(reg)]);
					return true;
				}, (pluginId) => delivered.get(pluginId)?.());
			} finally {
				for (const release of delivered.values()) release();
			}
		});
		this.#observerQueue = dispatch.catch(() => {});
		return dispatch;
	}
	/** Settles when every observer dispatch queued so far has finished. */
	settled() {
		return this.#observerQueue;
	}
	/** Collectors: the usable text results, in dispatch order, tagged with their plugin. */
	async collect(name, payload, signal) {
		assertHookKind(name, "collector");
		const base = this.#snapshot(name, payload);
		if (base === void 0) return [];
		return this.#collect(name, base, {}, signal);
	}
	#collect(name, base, options, signal) {
		const regs = this.#ordered(name, options.only);
		if (!regs.length) this.#recordUnheard(name, base, options);
		return collectInjected(regs, base, (reg, current) => this.#runCaughtUp(reg, current, options), signal, this.#concurrent);
	}
	/** Directives: first block wins; `args` rewrites chain; a failing callback blocks (fails closed). */
	async decide(name, payload) {
		assertHookKind(name, "directive");
		const base = this.#snapshot(name, payload);
		if (base === void 0) return {
			block: true,
			reason: `The ${name} payload could not be copied for plugins.`
		};
		return this.#decide(name, base, {});
	}
	#decide(name, base, options) {
		const regs = this.#ordered(name, options.only);
		if (!regs.length) this.#recordUnheard(name, base, options);
		return decideToolCall(regs, base, (reg, current) => this.#runCaughtUp(reg, current, options));
	}
	/**
	* Dispatches any hook by name with its kind's own rules (the same paths as notify, collect
	* and decide) and reports every call. For test events and test kits: an unknown name or a
	* payload that is not plain data throws; `only` limits delivery to one plugin.
	*/
	async fire(name, payload, options = {}) {
		assertHookName(name);
		if (options.only !== void 0 && !this.#ordered(name, options.only).length) throw new Error(`Plugin "${options.only}" has no ${name} callback.`);
		let base;
		try {
			base = freezeClone(payload);
		} catch (error) {
			throw new TypeError(`The ${name} payload is not plain data: ${error instanceof Error ? error.message : String(error)}`, { cause: error });
		}
		const calls = [];
		const dispatch = {
			...options,
			onCall: (entry) => calls.push(entry)
		};
		const kind = HOOK_KINDS[name];
		if (kind === "observer") {
			await this.#notify(name, base, dispatch);
			return {
				hook: name,
				kind,
				calls
			};
		}
		if (kind === "collector") {
			const injected = await this.#collect(name, base, dispatch);
			return {
				hook: name,
				kind,
				calls,
				injected,
				context: joinInjected(injected)
			};
		}
		return {
			hook: name,
			kind,
			calls,
			decision: await this.#decide(name, base, dispatch)
		};
	}
	async #runCaughtUp(reg, payload, options) {
		const pending = this.#caughtUp.get(reg.plugin_id);
		if (pending) {
			await waitAtMost(pending, catchUpLimitMs(resolveTimeoutMs(this.#timeoutSeconds())));
			if (!reg.active) return void 0;
		}
		return this.#run(reg, payload, options);
	}
	#expectEvent(pluginId) {
		let resolve;
		const delivered = new Promise((r) => resolve = r);
		this.#caughtUp.set(pluginId, delivered);
		return () => {
			resolve();
			if (this.#caughtUp.get(pluginId) === delivered) this.#caughtUp.delete(pluginId);
		};
	}
	/**
	* Runs plugin code that is not a hook callback (a slash command, a tool, register(ctx))
	* under the same rules: the hook timeout, the 60 s skip after a timeout (kept on `target`,
	* so keep one target per command or tool), failures tagged with plugin and name, and a
	* line in the hook log.
	*/
	callPlugin(target, call, options = {}) {
		const { summary = "", read, describe, payload } = options;
		return runPluginCall(target, call, this.#context(summary, {}), {
			read,
			describe,
			payload
		});
	}
	#run(reg, payload, options) {
		return runHook(reg, payload, this.#context(this.#summary(payload), options, payload));
	}
	#context(summary, options, payload) {
		const { onCall } = options;
		return {
			timeoutMs: resolveTimeoutMs(this.#timeoutSeconds()),
			now: this.#now,
			record: onCall ? (entry) => {
				onCall(entry);
				this.#record(entry);
			} : this.#record,
			logger: this.#logger,
			summary,
			payloadDetail: payload === void 0 ? void 0 : () => this.#detail(payload),
			test: options.test,
			callId: () => `${this.#callPrefix}-${++this.#calls}`,
			onTimeout: this.#onTimeout
		};
	}
	#recordUnheard(name, payload, options) {
		try {
			const entry = {
				at: this.#now(),
				hook: name,
				plugin_id: "",
				duration_ms: 0,
				outcome: "unheard",
				summary: this.#summary(payload)
			};
			if (options.test) entry.test = true;
			options.onCall?.(entry);
			this.#record(entry);
		} catch (error) {
			this.#logger.warn("[hooks] hook log sink failed", error);
		}
	}
	/** One summary per dispatched payload, however many callbacks receive it. */
	#summary(payload) {
		if (payload === null || typeof payload !== "object") return summarizePayload(payload);
		let summary = this.#summaries.get(payload);
		if (summary === void 0) {
			summary = summarizePayload(payload);
			this.#summaries.set(payload, summary);
		}
		return summary;
	}
	/** The payload as an expanded log row shows it, rendered once per dispatch. */
	#detail(payload) {
		if (payload === null || typeof payload !== "object") return previewValue(payload);
		let detail = this.#details.get(payload);
		if (detail === void 0) {
			detail = previewValue(payload);
			this.#details.set(payload, detail);
		}
		return detail;
	}
	#snapshot(name, payload) {
		try {
			return freezeClone(payload);
		} catch (error) {
			this.#logger.warn(`[hooks] ${name} payload is not structured-cloneable; no plugin was called`, error);
			return;
		}
	}
	#ordered(name, only) {
		const rank = (id) => {
			const loaded = this.#loadOrder.indexOf(id);
			return loaded >= 0 ? loaded : this.#loadOrder.length + this.#firstSeen.indexOf(id);
		};
		return this.#registrations.filter((r) => (name === void 0 || r.hook === name) && (only === void 0 || r.plugin_id === only)).sort((a, b) => rank(a.plugin_id) - rank(b.plugin_id) || a.seq - b.seq);
	}
	#whenRemoved(reg) {
		let entry = this.#removed.get(reg);
		if (!entry) {
			let resolve;
			entry = {
				promise: new Promise((r) => resolve = r),
				resolve
			};
			this.#removed.set(reg, entry);
		}
		return entry.promise;
	}
	#remove(matches) {
		for (const reg of this.#registrations) {
			if (!matches(reg)) continue;
			reg.active = false;
			this.#removed.get(reg)?.resolve();
		}
		this.#registrations = this.#registrations.filter((r) => r.active);
	}
};
// src/lib/hooks/sample-payloads.ts
/** The session id a test kit uses when a test names none. */
var TEST_SESSION_ID = "test-session";
var key = (session_id) => `web:default:${session_id}`;
var SAMPLES = {
	on_session_start: (session_id) => ({
		session_id,
		session_key: key(session_id),
		platform: "web",
		profile: "default",
		model: "offline-mini"
	}),
	on_session_end: (session_id) => ({
		session_id,
		session_key: key(session_id),
		end_reason: "new_session",
		platform: "web"
	}),
	on_session_finalize: (session_id) => ({
		session_id,
		session_key: key(session_id),
		platform: "web"
	}),
	on_session_reset: (session_id) => ({
		session_id,
		old_session_id: `${session_id}-before`,
		session_key: key(session_id)
	}),
	pre_llm_call: (session_id) => ({
		session_id,
		session_key: key(session_id),
		user_message: "What did we decide about the release date?",
		conversation_history: [{
			role: "user",
			content: "Let us plan the release.",
			attachments: [{
				type: "file",
				name: "roadmap.md",
				size: 2048
			}]
		}, {
			role: "assistant",
			content: "Sure: what date are you aiming for?"
		}],
		is_first_turn: false,
		model: "offline-mini",
		platform: "web",
		profile: "default"
	}),
	post_llm_call: (session_id) => ({
		session_id,
		user_message: "What did we decide about the release date?",
		assistant_response: "You settled on the first Monday of next month.",
		model: "offline-mini",
		usage: {
			input_tokens: 1200,
			output_tokens: 40,
			total_tokens: 1240
		}
	}),
	pre_tool_call: (session_id) => ({
		session_id,
		tool_name: "read_file",
		args: { path: "notes/release.md" }
	}),
	post_tool_call: (session_id) => ({
		session_id,
		tool_name: "read_file",
		args: { path: "notes/release.md" },
		result: "Release: first Monday of next month.",
		duration_ms: 12
	}),
	post_compaction: (session_id) => ({
		session_id,
		old_session_id: "",
		kind: "summarize",
		reason: "manual",
		before_tokens: 9e4,
		after_tokens: 12e3,
		messages_removed: 40,
		profile: "default",
		platform: "web",
		facts_total: 23,
		facts_kept: 21,
		facts_lost: ["src/billing/ledger.ts", "Never change the public API of the billing module."]
	}),
	on_session_delete: (session_id) => ({
		session_id,
		reason: "delete",
		profile: "default",
		sessions_dir: null
	})
};
/** Every documented field of `name`'s payload, made up, for `session_id`. */
function samplePayload(name, session_id = TEST_SESSION_ID) {
	return SAMPLES[name](session_id);
}
// src/lib/plugins/fetch-plugin-source.ts
var PluginLoadError = class extends Error {
	/** True when the server could not be reached at all, so a cached copy may stand in. */
	unreachable;
	constructor(message, options = {}) {
		super(message);
		this.name = "PluginLoadError";
		this.unreachable = options.unreachable ?? false;
	}
};
new TextDecoder("utf-8", {
	fatal: true,
	ignoreBOM: true
});
// src/lib/plugins/load-plugin.ts
/**
* Runs register(ctx) through the hook bus's choke point (the hook timeout, a line in the hook
* log); throws a PluginLoadError on a throw or a hang.
*/
async function runRegister(caller, pluginId, register, ctx) {
	const target = {
		plugin_id: pluginId,
		hook: "register(ctx)",
		suppressedUntil: -1e400
	};
	const result = await caller.callPlugin(target, () => register(ctx), { read: () => void 0 });
	if (result.outcome === "timeout") throw new PluginLoadError(`register(ctx) did not finish within ${result.timeoutMs / 1e3} s.`);
	if (result.outcome !== "ok") throw new PluginLoadError(`register(ctx) threw: ${result.error}`);
}
/** Bytes of one storage key. */
var MAX_KEY_CHARS = 1024;
function storageBudgetBytes(megabytes) {
	return Math.round((Number.isFinite(megabytes) && megabytes > 0 ? Math.min(megabytes, 500) : 5) * 1024 * 1024);
}
/** About how many bytes an entry of `ctx.storage` takes: its key and its value. */
function entryBytes(key, value) {
	return key.length * 2 + measurePlainData(value);
}
/** Throws when `value` (already a copy) is not plain data or is over MAX_VALUE_BYTES; returns the entry's bytes. */
function checkStoredValue(pluginId, key, value) {
	const check = checkPlainData(value, { maxBytes: MAX_VALUE_BYTES });
	if (!check.ok) throw new RangeError(`Plugin "${pluginId}" cannot store this value: ${check.reason}.`);
	return key.length * 2 + check.bytes;
}
function storageFullMessage(pluginId, needed, used, budget) {
	return `Plugin "${pluginId}" storage is full: this write needs ${formatBytes(needed)} more, and it uses ${formatBytes(used)} of its ${formatBytes(budget)} (Settings → Plugins sets the budget). Delete keys it no longer needs.`;
}
function tooManyRegistrationsMessage(pluginId) {
	return `Plugin "${pluginId}" already has 100 hooks, commands and tools registered, the most one plugin may have.`;
}
/**
* A token bucket: `take()` is true while the rate allows, false for what is over it.
* Time comes from `now`, so tests and the isolated runtime drive it alike.
*/
var RateBudget = class {
	#tokens;
	#at;
	#rate;
	#burst;
	#now;
	constructor(perSecond, burst, now = () => Date.now()) {
		this.#rate = perSecond;
		this.#burst = burst;
		this.#tokens = burst;
		this.#now = now;
		this.#at = now();
	}
	/** Takes `amount` when the rate allows it now; false (and nothing taken) when it does not. */
	take(amount = 1) {
		this.#refill();
		if (this.#tokens < amount) return false;
		this.#tokens -= amount;
		return true;
	}
	/** Takes `amount` whatever is left, for what is only known once done (bytes read): later takes wait for it. */
	charge(amount) {
		this.#refill();
		this.#tokens -= amount;
	}
	/** How long until `amount` could be taken (0: now). */
	waitMs(amount = 1) {
		this.#refill();
		return this.#tokens >= amount ? 0 : Math.ceil((amount - this.#tokens) / this.#rate * 1e3);
	}
	#refill() {
		const now = this.#now();
		this.#tokens = Math.min(this.#burst, this.#tokens + (now - this.#at) / 1e3 * this.#rate);
		this.#at = now;
	}
};
// src/lib/plugins/storage-key.ts
function checkStorageKey(key) {
	if (typeof key !== "string" || !key) throw new TypeError("Storage keys are non-empty strings.");
	if (key.length > 1024) throw new RangeError(`Storage keys are at most ${MAX_KEY_CHARS} characters; this one has ${key.length}.`);
	return key;
}
function closedStorageError(pluginId) {
	return /* @__PURE__ */ new Error(`Plugin "${pluginId}" is unloaded; its storage is closed.`);
}
// src/lib/plugins/memory-storage.ts
function createMemoryStorage(pluginId, isOpen = () => true, data = /* @__PURE__ */ new Map(), budget = storageBudgetBytes(5)) {
	const open = () => {
		if (!isOpen()) throw closedStorageError(pluginId);
	};
	return Object.freeze({
		get: async (key) => {
			open();
			return structuredClone(data.get(checkStorageKey(key)));
		},
		set: async (key, value) => {
			open();
			const checked = checkStorageKey(key);
			const copy = structuredClone(value);
			const bytes = checkStoredValue(pluginId, checked, copy);
			let used = 0;
			for (const [k, v] of data) used += entryBytes(k, v);
			const oldBytes = data.has(checked) ? entryBytes(checked, data.get(checked)) : 0;
			if (bytes > oldBytes && used - oldBytes + bytes > budget) throw new RangeError(storageFullMessage(pluginId, bytes - oldBytes, used, budget));
			data.set(checked, copy);
		},
		delete: async (key) => {
			open();
			data.delete(checkStorageKey(key));
		},
		keys: async (prefix = "") => {
			open();
			return [...data.keys()].filter((key) => key.startsWith(String(prefix))).sort();
		},
		entries: () => [...data.entries()].sort(([a], [b]) => a < b ? -1 : a > b ? 1 : 0).map(([key, value]) => [key, structuredClone(value)])
	});
}
// src/lib/plugins/plugin-context.ts
function createPluginContext(parts) {
	const undo = [];
	const registered = {
		hooks: [],
		commands: [],
		tools: []
	};
	const logger = parts.logger ?? console;
	const tag = `[plugin ${parts.pluginId}]`;
	const logBudget = new RateBudget(50, 200, parts.now);
	let disposed = false;
	function track(list, name, remove) {
		list.push(name);
		let done = false;
		const once = () => {
			if (done) return;
			done = true;
			remove();
			list.splice(list.indexOf(name), 1);
		};
		undo.push(once);
		return once;
	}
	function log(level, args) {
		if (!logBudget.take()) {
			parts.onLogsDropped?.(1);
			return;
		}
		logger[level](tag, ...args);
		try {
			parts.onLog?.(level, args);
		} catch (error) {
			logger.warn(tag, "could not keep this log line", error);
		}
	}
	function live() {
		if (disposed) throw new Error(`Plugin "${parts.pluginId}" is unloaded; it can no longer register anything.`);
		if (registered.hooks.length + registered.commands.length + registered.tools.length >= 100) throw new RangeError(tooManyRegistrationsMessage(parts.pluginId));
	}
	return {
		ctx: Object.freeze({
			plugin_id: parts.pluginId,
			manifest: parts.manifest ? Object.freeze({ ...parts.manifest }) : null,
			register_hook(name, callback) {
				live();
				return track(registered.hooks, String(name), parts.hooks.register(parts.pluginId, String(name), callback));
			},
			register_command(name, handler, meta = {}) {
				live();
				return track(registered.commands, String(name), parts.commands.add(parts.pluginId, String(name), handler, meta ?? {}));
			},
			register_tool(tool) {
				live();
				const { name, description, parameters, handler } = tool ?? {};
				const remove = parts.tools.add({
					plugin_id: parts.pluginId,
					name,
					description,
					parameters,
					handler
				});
				return track(registered.tools, String(name), remove);
			},
			storage: parts.storage(() => !disposed),
			log: Object.freeze({
				info: (...args) => log("info", args),
				warn: (...args) => log("warn", args),
				error: (...args) => log("error", args)
			}),
			has_plugin: (id) => parts.hasPlugin(String(id))
		}),
		registered,
		dispose() {
			disposed = true;
			for (const fn of undo.splice(0).reverse()) fn();
		}
	};
}
// src/lib/plugins/format-log-args.ts
var VALUE_LIMITS = {
	...LINE_LIMITS,
	maxChars: 1e3,
	maxString: 400,
	maxItems: 20
};
function formatLogArgs(args) {
	return args.map(formatOne).join(" ");
}
function formatOne(value) {
	try {
		if (typeof value === "string") return value;
		if (value instanceof Error) return `${value.name}: ${value.message}`;
		if (typeof value === "function") return `[function ${value.name || "anonymous"}]`;
		return previewValue(value, VALUE_LIMITS);
	} catch {
		return "[unprintable value]";
	}
}
var MAX_LINE = 2e3;
/** One `ctx.log` call as a line of text, cut to MAX_LINE characters. */
function toLogLine(at, level, args) {
	const text = formatLogArgs(args);
	return {
		at,
		level,
		text: text.length > MAX_LINE ? oneLine(text, MAX_LINE) : text
	};
}
var PluginLogBook = class {
	#lines = /* @__PURE__ */ new Map();
	#listeners = /* @__PURE__ */ new Set();
	#now;
	#keep;
	/** `keep`: also told of every line (the app stores them, so they survive a reload). */
	constructor(now = () => Date.now(), keep) {
		this.#now = now;
		this.#keep = keep;
	}
	append(pluginId, level, args) {
		const line = toLogLine(this.#now(), level, args);
		this.#keep?.(pluginId, line);
		const lines = this.#lines.get(pluginId) ?? [];
		lines.push(line);
		if (lines.length > 200) lines.splice(0, lines.length - 200);
		this.#lines.set(pluginId, lines);
		for (const listener of this.#listeners) listener(pluginId);
	}
	/** The plugin's lines, oldest first (a copy). */
	lines(pluginId) {
		return [...this.#lines.get(pluginId) ?? []];
	}
	clear(pluginId) {
		this.#lines.delete(pluginId);
		for (const listener of this.#listeners) listener(pluginId);
	}
	/** Calls `listener` with the plugin id after each change; returns the undo. */
	subscribe(listener) {
		this.#listeners.add(listener);
		return () => this.#listeners.delete(listener);
	}
};
// src/lib/hooks/tool-schema.ts
/** The providers' rule for function names. */
var TOOL_NAME = /^[a-zA-Z0-9_-]{1,64}$/;
/** The schema of a tool that takes no arguments. */
var NO_ARGUMENTS = Object.freeze({
	type: "object",
	properties: {}
});
/** What providers would reject in a tool's argument schema, or null; `label` names it in the message. */
function schemaProblem(schema, label = "parameters") {
	if (!isPlainObject(schema)) return `${label} must be a JSON Schema object, not ${describeValue(schema)}`;
	if (schema.type !== "object") return `${label}.type must be "object", not ${describeValue(schema.type)}`;
	const { properties, required } = schema;
	if (properties !== void 0) {
		if (!isPlainObject(properties)) return `${label}.properties must be an object, not ${describeValue(properties)}`;
		for (const [key, property] of Object.entries(properties)) if (!isPlainObject(property)) return `${label}.properties.${key} must be a JSON Schema object such as { "type": "string" }, not ${describeValue(property)}`;
	}
	if (required !== void 0) {
		if (!Array.isArray(required)) return `${label}.required must be an array of property names, not ${describeValue(required)}`;
		for (const key of required) {
			if (typeof key !== "string") return `${label}.required must list property names (strings), not ${describeValue(key)}`;
			if (!isPlainObject(properties) || !Object.hasOwn(properties, key)) return `${label}.required names "${key}", which is not in ${label}.properties`;
		}
	}
	return null;
}
function isPlainObject(value) {
	if (typeof value !== "object" || value === null) return false;
	const proto = Object.getPrototypeOf(value);
	return proto === Object.prototype || proto === null;
}
/** A short phrase for a value in an error message: `the string "x"`, `an array`, `5`. */
function describeValue(value) {
	if (value === null || value === void 0) return String(value);
	if (Array.isArray(value)) return "an array";
	if (typeof value === "string") return `the string ${JSON.stringify(value.length > 40 ? `${value.slice(0, 40)}…` : value)}`;
	if (typeof value === "number" || typeof value === "boolean") return String(value);
	if (typeof value === "object") return isPlainObject(value) ? "an object" : `a ${value.constructor?.name ?? "class instance"}`;
	return `a ${typeof value}`;
}
var MAX_TOOL_DESCRIPTION_CHARS = 4e3;
/** The parameters' JSON Schema, as the JSON a request carries. */
var MAX_TOOL_PARAMETERS_CHARS = 16384;
/** What is over the bounds of a tool, worded for the plugin's author, or null when it is within them. */
function toolBoundsProblem({ name, description, parameters }) {
	if (typeof name === "string" && name.length > 64) return `its name has ${name.length.toLocaleString("en")} characters, over the 64 a tool's name may have`;
	if (typeof description === "string" && description.length > 4e3) return `its description has ${description.length.toLocaleString("en")} characters, over the ${MAX_TOOL_DESCRIPTION_CHARS.toLocaleString("en")} a tool's description may have`;
	const over = new JsonWalk(MAX_TOOL_PARAMETERS_CHARS, 16).visit(parameters, 1);
	if (over === "depth") return `its parameters are nested more than 16 levels deep, the most a tool's parameters may be`;
	if (over === "size") return `its parameters take more than ${formatBytes(MAX_TOOL_PARAMETERS_CHARS)} as JSON, the most a tool's parameters may take`;
	return null;
}
/** The refusal a plugin sees, naming it and the tool (a name of any size is cut to fit a line). */
function toolBoundsMessage(pluginId, name, problem) {
	return `Plugin "${pluginId}" cannot register tool ${typeof name === "string" ? JSON.stringify(name.length > 80 ? `${name.slice(0, 80)}…` : name) : "without a name"}: ${problem}.`;
}
/** Counts the characters JSON.stringify would write, stopping at the first bound passed. */
var JsonWalk = class {
	#chars = 0;
	#max;
	#depth;
	constructor(maxChars, maxDepth) {
		this.#max = maxChars;
		this.#depth = maxDepth;
	}
	/** null while within the bounds; which bound was passed otherwise. */
	visit(value, depth) {
		if (typeof value === "string") return this.#add(value.length + 2);
		if (typeof value === "number") return this.#add(Number.isFinite(value) ? String(value).length : 4);
		if (typeof value === "boolean") return this.#add(value ? 4 : 5);
		if (typeof value !== "object" || value === null) return this.#add(4);
		if (depth > this.#depth) return "depth";
		if (Array.isArray(value)) {
			const over = this.#add(2 + Math.max(0, value.length - 1));
			if (over) return over;
			for (const item of value) {
				const inner = this.visit(item, depth + 1);
				if (inner) return inner;
			}
			return null;
		}
		const over = this.#add(2);
		if (over) return over;
		let entries = 0;
		for (const key of Object.keys(value)) {
			const item = value[key];
			if (item === void 0 || typeof item === "function") continue;
			const inner = this.#add(key.length + 3 + (entries++ > 0 ? 1 : 0)) ?? this.visit(item, depth + 1);
			if (inner) return inner;
		}
		return null;
	}
	#add(chars) {
		this.#chars += chars;
		return this.#chars > this.#max ? "size" : null;
	}
};
// src/lib/plugins/plugin-tools.ts
var ToolRegistry = class {
	#tools = /* @__PURE__ */ new Map();
	#listeners = /* @__PURE__ */ new Set();
	#caller;
	constructor(caller) {
		this.#caller = caller;
	}
	/** Throws, naming the plugin, the tool and what is wrong, for a tool providers would refuse. */
	add(input) {
		const tool = checkTool(input);
		const owner = this.#tools.get(tool.name);
		if (owner) throw new Error(`A tool named "${tool.name}" is already registered by plugin "${owner.plugin_id}".`);
		this.#tools.set(tool.name, tool);
		this.#changed();
		return () => {
			if (this.#tools.get(tool.name) !== tool) return;
			this.#tools.delete(tool.name);
			this.#changed();
		};
	}
	list() {
		return [...this.#tools.values()];
	}
	schemas() {
		return this.list().map((tool) => tool.schema);
	}
	/** The plugin that offers the tool named `name`, if a plugin does. */
	ownerOf(name) {
		return this.#tools.get(name)?.plugin_id;
	}
	/** `listener` is told each time a tool comes or goes (the meter counts the tools again). */
	subscribe(listener) {
		this.#listeners.add(listener);
		return () => this.#listeners.delete(listener);
	}
	#changed() {
		for (const listener of this.#listeners) listener();
	}
	/** The tool's result as text; throws with the plugin's error, a timeout or a skip. */
	async run(name, args, context) {
		const tool = this.#tools.get(name);
		if (!tool) throw new Error(`The model called "${name}", which no enabled plugin provides.`);
		const copy = structuredClone(args);
		const result = await this.#caller.callPlugin(tool.target, () => tool.handler(copy, { ...context }), {
			summary: `session_id=${context.session_id}`,
			read: (value) => {
				const copy = copyResult(value);
				return typeof copy === "string" ? copy : String(JSON.stringify(copy ?? null));
			},
			describe: (text) => describeToolResult(text),
			payload: {
				args,
				context
			}
		});
		if (result.outcome === "ok") return result.value;
		if (result.outcome === "timeout") throw new Error(`Tool "${name}" did not answer within ${result.timeoutMs / 1e3} s; it is skipped for the next ${SUPPRESS_AFTER_TIMEOUT_MS / 1e3} s.`);
		if (result.outcome === "skipped") throw new Error(`Tool "${name}" is skipped for now: it did not answer in time less than ${SUPPRESS_AFTER_TIMEOUT_MS / 1e3} s ago.`);
		throw new Error(result.error);
	}
};
/** A registrable tool with its own copy of the schema, or an error saying what is wrong. */
function checkTool(input) {
	const { plugin_id, name, description, handler } = input;
	const label = typeof name === "string" ? `tool "${name}"` : `a tool named ${describeValue(name)}`;
	const refuse = (problem) => /* @__PURE__ */ new TypeError(`Plugin "${plugin_id}" cannot register ${label}: ${problem}.`);
	if (typeof name !== "string" || !TOOL_NAME.test(name)) throw refuse(`the name must be 1–64 letters, digits, "_" or "-"`);
	if (description !== void 0 && typeof description !== "string") throw refuse(`description must be a string, not ${describeValue(description)}`);
	if (typeof handler !== "function") throw refuse("it needs a handler function");
	const over = toolBoundsProblem(input);
	if (over) throw new RangeError(toolBoundsMessage(plugin_id, name, over));
	let parameters;
	try {
		parameters = structuredClone(input.parameters ?? NO_ARGUMENTS);
	} catch {
		throw refuse("parameters must be plain JSON data (no functions or class instances)");
	}
	const problem = schemaProblem(parameters);
	if (problem) throw refuse(problem);
	return {
		plugin_id,
		schema: Object.freeze({
			name,
			description: description ?? "",
			parameters
		}),
		name,
		description: description ?? "",
		parameters,
		handler,
		target: {
			plugin_id,
			hook: `tool ${name}`,
			suppressedUntil: -1e400
		}
	};
}
// src/lib/plugins/plugin-url.ts
function decodes(text) {
	try {
		decodeURIComponent(text);
		return true;
	} catch {
		return false;
	}
}
/** A readable id from the module's file name ("…/conventions.js" → "conventions"), unique among `taken`. */
function pluginIdFromUrl(url, taken) {
	const raw = new URL(url).pathname.split("/").filter(Boolean).pop() ?? "plugin";
	const base = (decodes(raw) ? decodeURIComponent(raw) : raw).replace(/\.(m?js|ts)$/i, "").toLowerCase().replace(/[^a-z0-9_-]+/g, "-").replace(/^-+|-+$/g, "") || "plugin";
	let id = base;
	for (let n = 2; taken.has(id); n++) id = `${base}-${n}`;
	return id;
}
// src/lib/plugins/read-plugin-module.ts
function readPluginModule(mod) {
	const fallback = mod.default ?? {};
	const register = mod.register ?? fallback.register;
	if (typeof register !== "function") throw new PluginLoadError("The module does not export a register(ctx) function (named, or on its default export).");
	return {
		register,
		manifest: readManifest(mod.manifest ?? fallback.manifest)
	};
}
/** The manifest's known fields, as trimmed text of at most 300 characters; anything else is dropped. */
function readManifest(value) {
	if (!value || typeof value !== "object") return null;
	const raw = value;
	const text = (v) => typeof v === "string" && v.trim() ? v.trim().slice(0, 300) : void 0;
	return {
		name: text(raw.name),
		version: text(raw.version),
		description: text(raw.description)
	};
}
// src/lib/test-kit/plugin-test-kit.ts
var PROBLEMS = /* @__PURE__ */ new Set([
	"warning",
	"error",
	"timeout",
	"skipped"
]);
function createTestKit(options = {}) {
	const calls = [];
	const reporter = options.quiet ? { warn: () => {} } : options.logger ?? console;
	const record = (entry) => {
		calls.push(entry);
		if (!PROBLEMS.has(entry.outcome)) return;
		const what = entry.warning ?? entry.error ?? "";
		reporter.warn(`[plugin test kit] ${entry.plugin_id} ${entry.hook}: ${entry.outcome}${what ? `: ${what}` : ""}`);
	};
	const bus = new HookBus({
		timeoutSeconds: () => options.timeoutSeconds ?? 30,
		record,
		logger: { warn: () => {} }
	});
	const commands = new CommandRegistry(bus);
	const tools = new ToolRegistry(bus);
	const book = new PluginLogBook();
	const plugins = /* @__PURE__ */ new Map();
	const order = [];
	const quiet = {
		info: () => {},
		warn: () => {},
		error: () => {}
	};
	function start(pluginId, manifest, seed = {}) {
		if (plugins.has(pluginId)) throw new Error(`A plugin with id "${pluginId}" is already loaded in this kit.`);
		const data = new Map(Object.entries(structuredClone(seed)));
		let storage;
		const context = createPluginContext({
			pluginId,
			manifest,
			hooks: bus,
			commands,
			tools,
			storage: (isOpen) => storage = createMemoryStorage(pluginId, isOpen, data),
			hasPlugin: (id) => plugins.has(id),
			logger: options.echoLogs ? console : quiet,
			onLog: (level, args) => book.append(pluginId, level, args)
		});
		const plugin = {
			plugin_id: pluginId,
			manifest: context.ctx.manifest,
			ctx: context.ctx,
			registered: context.registered,
			stored: () => Object.fromEntries(storage.entries()),
			logs: () => book.lines(pluginId),
			unload() {
				if (plugins.get(pluginId) !== plugin) return;
				plugins.delete(pluginId);
				order.splice(order.indexOf(pluginId), 1);
				context.dispose();
				bus.unregisterPlugin(pluginId);
			}
		};
		plugins.set(pluginId, plugin);
		order.push(pluginId);
		bus.setPluginOrder(order);
		return {
			plugin,
			context
		};
	}
	function idFor(wanted, manifest) {
		if (wanted !== void 0) return wanted;
		const name = manifest?.name ?? "plugin";
		return pluginIdFromUrl(`https://plugins.invalid/${encodeURIComponent(name)}.js`, new Set(plugins.keys()));
	}
	return {
		async load(module, loadOptions = {}) {
			const { register, manifest } = readPluginModule(module);
			const { plugin, context } = start(idFor(loadOptions.plugin_id, manifest), manifest, loadOptions.storage);
			try {
				await runRegister(bus, plugin.plugin_id, register, context.ctx);
			} catch (error) {
				plugin.unload();
				throw error;
			}
			return plugin;
		},
		context(pluginId, contextOptions = {}) {
			return start(pluginId, null, contextOptions.storage).plugin;
		},
		async fire(name, fields = {}) {
			assertHookName(name);
			return bus.fire(name, {
				...samplePayload(name),
				...fields
			});
		},
		payload(name, fields = {}) {
			return {
				...samplePayload(name),
				...fields
			};
		},
		async command(text, invocation = {}) {
			const session_id = invocation.session_id ?? "test-session";
			const session_key = invocation.session_key ?? `web:default:${session_id}`;
			const full = {
				session_id,
				session_key,
				platform: invocation.platform ?? "web",
				source: invocation.source === void 0 ? {
					platform: "web",
					user_id: "test-user",
					user_name: "Test User",
					chat_id: session_key,
					thread_id: session_id,
					profile: "default"
				} : invocation.source
			};
			return (await commands.execute(text, full)).output;
		},
		tool(name, args = {}, context = {}) {
			return tools.run(name, args, { session_id: context.session_id ?? "test-session" });
		},
		calls,
		settled: () => bus.settled()
	};
}
export { createTestKit };
