// Facts that are references and code: web and e-mail addresses, paths and file names, and
// identifiers (called, in backticks, flags, package managers' commands, resource, bundle and
// module names, colours, codes, camelCase and snake_case words), and what a code stands for. Pure.

const FILE_EXTENSIONS =
	'ts|tsx|js|jsx|mjs|cjs|svelte|vue|py|rb|go|rs|java|kt|swift|c|h|cpp|hpp|cs|php|md|json|ya?ml|toml|ini|env|css|scss|html?|sql|sh|bash|txt|csv|xml|pdf|docx?|xlsx?|pptx?|png|jpe?g|gif|svg|webp|lock|log|conf|cfg|proto|graphql|tf|gradle|zip|tar|gz';
/**
 * What a text must hold for a pattern below to match in it: passing over a text without it is
 * much cheaper than reading it with the pattern, as a gate begins with a character few places have.
 */
export const GATES = {
	url: /:\/\/|www\.|\.(?:com|org|net|io|dev|app|ai|co|de|fr|uk|eu|ch|nl|se)\b/i,
	fileName: new RegExp(`\\.(?:${FILE_EXTENSIONS})\\b|(?:Docker|Make|Proc|Gem|Rake|Jenkins)file`),
	called: /[\w$]\(/,
	nameVersion: /[a-z]\d+\.\d/,
	kebab: /-[a-z0-9]+-/,
	bundle: /\.[a-z0-9-]+\./i,
	dotted: /[a-z0-9_]\.[a-z_]/,
	pascalMember: /[a-z0-9]\.[A-Z]/,
	sql: /[A-Z]{4}\s+[A-Z]{2}/,
	codeName: /[A-Za-z0-9]_[A-Za-z0-9]|[a-z0-9][A-Z]/,
	nameList: /_|[a-z][A-Z]/,
	// The last letter of a package manager's name, then its command.
	packageCommand: /[pmntwoavyrx3] (?:install|i|add|remove|rm|uninstall|upgrade|update)\b/
};
export const URL = /\b(?:https?|ftp):\/\/[^\s<>()[\]{}"'`|]+|\bwww\.[\w-]+(?:\.[\w-]+)+[^\s<>()[\]{}"'`|]*|\b[\w-]+(?:\.[\w-]+)*\.(?:com|org|net|io|dev|app|ai|co|de|fr|uk|eu|ch|nl|se)\b(?:\/[^\s<>()[\]{}"'`|]*)?/gi;
/** This computer's own address, with its port: localhost:5173. */
export const LOCALHOST = /\blocalhost(?::\d{1,5})?(?:\/[^\s<>()[\]{}"'`|]*)?/g;
/** An IP address, with its port when given (a version pattern would take only its first three numbers). */
export const IP_ADDRESS = /\b(?:\d{1,3}\.){3}\d{1,3}(?::\d{1,5})?\b/g;
export const EMAIL = /\b[\w.+-]+@[A-Za-z0-9-]+(?:\.[A-Za-z0-9-]+)+\b/g;
export const PATH = /(?<![\w@:/.])(?:~|\.{1,2})?\/?(?:[\w@.+-]+\/)+[\w@.+-]*\w/g;
export const WINDOWS_PATH = /\b[A-Za-z]:\\(?:[\w.-]+\\)*[\w.-]+/g;
export const FILE_NAME = new RegExp(`\\b[\\w][\\w.-]*\\.(?:${FILE_EXTENSIONS})\\b|\\b(?:Dockerfile|Makefile|Procfile|Gemfile|Rakefile|Jenkinsfile)\\b`, 'g');
export const INLINE_CODE = /`([^`\n]{1,100})`/g;
/** A call, taken by its name: its arguments may hold calls of their own ("store.OrdersAfter(r.Context(), cursor)"). */
export const CALLED = /\b[A-Za-z_$][\w$]*(?:\.[A-Za-z_$][\w$]*)*\((?!e?s\))(?=(?:[^()\n]|\([^()\n]*\)){0,200}\))/g;
/** Words that do not belong to a command written before its flags ("run it with --dry-run"). */
const NOT_COMMAND = 'it|with|without|the|a|an|on|in|to|and|or|using|via|from|of|for|then|again|once|by|as|is|be|this|that|never|always|only|not';
const COMMAND_WORD = `(?!(?:${NOT_COMMAND})\\b)[a-z][\\w.-]*`;
/**
 * Command-line flags, with the command they follow when it is written with them: the words
 * from the start of a line ("fastlane match appstore --readonly"), or from a word only code has
 * (with _, a dot or a digit: "pg_dump --schema-only").
 */
export const FLAG = new RegExp(
	`(?:(?<=^[ \\t]*(?:(?:Run|run|\\$|>)[ \\t]+)?)(?:${COMMAND_WORD}[ \\t]+){1,3}|\\b[a-z][\\w.-]*[_.\\d][\\w.-]*[ \\t]+(?:${COMMAND_WORD}[ \\t]+){0,2})?(?<![\\w-])--[a-z][\\w-]*\\w(?:=[^\\s,;]+)?(?:[ \\t]+--[a-z][\\w-]*\\w(?:=[^\\s,;]+)?)*`,
	'gm'
);
/** Package managers, whose commands are written in prose as often as on a line of their own. */
const PACKAGE_MANAGER = '(?:sudo[ \\t]+)?(?:pip3?|pipx|npm|pnpm|yarn|bun|apt(?:-get)?|brew|cargo|gem|conda|mamba|uv|poetry|composer)';
/** A package manager's command with its flags and packages, wherever it is written: "pip install --upgrade lightgbm", "npm i -D vitest". */
export const PACKAGE_COMMAND = new RegExp(
	`\\b${PACKAGE_MANAGER}[ \\t]+(?:install|i|add|remove|rm|uninstall|upgrade|update)\\b(?:[ \\t]+(?!(?:${NOT_COMMAND}|but|if|so|first|instead|before|after|which|now)\\b)[\\w@:/=<>~^+-]+(?:[.,][\\w@:/=<>~^+-]+)*)*`,
	'g'
);
/** A statement of SQL named by its keywords, with the name it acts on: "ALTER EXTENSION postgis UPDATE", "CREATE INDEX CONCURRENTLY". */
export const SQL_STATEMENT =
	/\b(?:SELECT|INSERT|UPDATE|DELETE|CREATE|ALTER|DROP|GRANT|REVOKE|TRUNCATE|EXPLAIN|VACUUM|REINDEX)(?:\s+[A-Z]{2,}\b)+(?:\s+[a-z_][\w.]*(?:(?:\s+[A-Z]{2,}\b)+|(?=\s*(?:[.,;:)]|$))))?/gm;
/** A call with one name or one quoted word for its argument, taken whole: "sessionKey(user.id)", 'Get("after")', 'getenv("DATABASE_URL")'. */
export const CALLED_WITH = /\b[A-Za-z_$][\w$]*(?:\.[A-Za-z_$][\w$]*)*\((?!e?s\))(?:[A-Za-z_$][\w$]*(?:\.[A-Za-z_$][\w$]*)*|"[\w.:/-]{1,60}"|'[\w.:/-]{1,60}')\)/g;
/** A list of names alone on its line (after a label) or in parentheses: "columns: resp_id, age, carer", "(created_at, id)". */
export const NAME_LIST = /^[^\S\n]*(?:[\w ]{1,30}:)?[^\S\n]*[A-Za-z_]\w*(?:[^\S\n]*,[^\S\n]*[A-Za-z_]\w*)+[^\S\n]*$|\([A-Za-z_]\w*(?:[^\S\n]*,[^\S\n]*[A-Za-z_]\w*)+\)/gm;
const LIST_LABEL = /^[^\S\n]*(?:[\w ]{1,30}:)?[^\S\n]*/;

/** Where the names of a NAME_LIST match found at `at` are, without its label or parentheses. */
export function listSpan(found: string, at: number): [number, number] {
	if (found.startsWith('(')) return [at + 1, at + found.length - 1];
	return [at + LIST_LABEL.exec(found)![0].length, at + found.trimEnd().length];
}
const IS_CODE_NAME = /_|[a-z][A-Z]/;

/** The names of a NAME_LIST match when it lists names in code: when at least half of them are written as code is (snake_case, camelCase). */
export function namesInCode(list: string): string[] {
	const names = list.split(',').map((name) => name.trim());
	return names.filter((name) => IS_CODE_NAME.test(name)).length * 2 >= names.length ? names : [];
}
/**
 * What a code or abbreviation stands for, in parentheses after it: "PE10 (Earth system science)",
 * "AF (atrial fibrillation)"; two to six words, not a remark ("PR (see below)", "API (not yet)").
 */
export const CODE_MEANING = /\b[A-Z][A-Z0-9]*[A-Z0-9](?:-[A-Z0-9]+)* \([A-Za-z][a-z]+(?:[ -][A-Za-z][a-z]*){1,5}\)/g;
/** The first words of a remark in parentheses, which says no code's meaning. */
export const REMARK = /^(?:the|a|an|not|see|in|for|if|e\.g|i\.e|about|only|all|both|each|per|via|from|with|without|and|or|as|at|by|on|to|was|is|are|still|just|maybe|now|new|old|my|our|your|his|her|their|its|this|that|these|those|which|who|one|two|three|no|yes)\b/i;
/** A name with its version run into it: colbertv2.0, python3.12. */
export const NAME_VERSION = /\b[a-z]{2,}\d+(?:\.\d+)+\b/g;
/** Names of resources, regions and models with a number among three or more parts: prod-eu-west-1, gpt-4o-mini. */
export const KEBAB_ID = /\b[a-z][a-z0-9]*(?:-[a-z0-9]+){2,}\b/g;
/** Bundle and package ids written from the top-level domain down: com.example.notes. */
export const BUNDLE_ID = /\b(?:com|org|net|io|dev|app|de|uk|fr|ch|nl|se)\.[a-z0-9-]+(?:\.[a-z0-9-]+)+\b/gi;
/**
 * Module paths and settings in dots: statsmodels.imputation.mice, spring.datasource.url; in two
 * parts when the second is written in snake_case (rds.logical_replication) or the first is a
 * module's short alias (smf.ols, np.mean).
 */
export const DOTTED_ID = /\b[a-z_][a-z0-9_]*(?:\.[a-z_][a-z0-9_]*){2,}\b|\b[a-z][a-z0-9]*\.[a-z][a-z0-9]*_[a-z0-9_]+\b|\b[a-z]{2,4}\.[a-z_]{2,}\b/g;
/** A member written in PascalCase after a package's or object's name: store.OrdersAfter, http.StatusNotFound. */
export const PASCAL_MEMBER = /\b[a-z][a-z0-9]*\.[A-Z][a-z0-9]+(?:[A-Z][a-z0-9]*)+\b/g;
/** Colours in hex, with a letter among their digits (#482 is a number). */
export const COLOUR = /#(?=[0-9A-Fa-f]*[A-Fa-f])(?:[0-9A-Fa-f]{6}|[0-9A-Fa-f]{3})\b/g;
/** Codes of capitals and digits, five characters or more: team ids, form numbers (8KQ2J7X4TP, 1099-NEC). */
export const CAPS_CODE = /\b(?=[A-Z0-9-]{5,}\b)(?=[A-Z-]*\d)(?=[0-9-]*[A-Z])[A-Z0-9]+(?:-[A-Z0-9]+)*\b/g;
export const IS_EMAIL = /^[\w.+-]+@[A-Za-z0-9-]+(?:\.[A-Za-z0-9-]+)+$/;
export const CODE_WORD = /\b(?:[a-z][a-z0-9]*(?:[A-Z][a-z0-9]*)+|[A-Za-z][A-Za-z0-9]*(?:_[A-Za-z0-9]+)+|[A-Z][a-z0-9]+(?:[A-Z][a-z0-9]+){1,}(?=\.|\())\b/g;

/** Pairs with a slash that are words, not paths. */
const NOT_PATHS = new Set(['and/or', 'he/she', 'his/her', 'km/h', 'w/o', 'n/a', 'i/o', 'yes/no', 'on/off', 'true/false', 'read/write', 'input/output', 'client/server', 'pros/cons', 'either/or', 'req/s', 'mg/dl', 'mmol/l', 'ml/h', 'mg/kg']);
const PATH_ROOTS = new Set(['src', 'lib', 'app', 'apps', 'test', 'tests', 'docs', 'bin', 'etc', 'usr', 'var', 'home', 'config', 'scripts', 'static', 'public', 'packages', 'components', 'pages', 'api', 'routes', 'build', 'dist', 'node_modules', 'tmp', 'opt', 'assets', 'vendor', 'internal', 'cmd', 'pkg']);

const HAS_EXTENSION = new RegExp(`\\.(?:${FILE_EXTENSIONS})$`, 'i');

export function isPath(text: string): boolean {
	if (NOT_PATHS.has(text.toLowerCase())) return false;
	const parts = text.replace(/^[~.]*\/?/, '').split('/');
	if (parts.every((part) => /^\d*$/.test(part))) return false;
	if (/^(?:~|\.{1,2})?\//.test(text) && parts.length >= 1 && parts.some((part) => /[a-z]/i.test(part))) return true;
	if (HAS_EXTENSION.test(text)) return true;
	if (parts.length >= 3) return true;
	return parts.some((part) => /[._@\d-]/.test(part)) || PATH_ROOTS.has(parts[0].toLowerCase());
}

export const trimUrl = (url: string) => url.replace(/[.,;:!?)\]]+$/, '');
