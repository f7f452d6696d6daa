// Which files go to a model as text: plain text, Markdown, source code, CSV and JSON, known by
// their type or, where the system gave none (most source files), by their extension; and the
// check that their bytes are UTF-8 text, so no binary file is sent as garbage.

const TEXT_TYPES = new Set([
	'application/json',
	'application/ld+json',
	'application/xml',
	'application/javascript',
	'application/typescript',
	'application/x-javascript',
	'application/x-typescript',
	'application/x-sh',
	'application/x-yaml',
	'application/yaml',
	'application/toml',
	'application/sql',
	'application/x-python',
	'application/x-ndjson'
]);

const TEXT_EXTENSIONS = new Set(
	(
		'txt text md markdown mdx rst adoc org tex log csv tsv json jsonl ndjson yaml yml toml ini cfg conf env xml svg html htm css scss sass less ' +
		'js mjs cjs jsx ts mts cts tsx svelte vue astro py pyi rb php pl pm lua r jl go rs java kt kts scala groovy gradle swift m mm c h cc cpp cxx hpp hh cs fs fsx vb ' +
		'dart ex exs erl hrl clj cljs edn hs elm ml mli nim zig v sol sql graphql gql proto sh bash zsh fish ps1 bat cmd makefile mk cmake dockerfile ' +
		'gitignore gitattributes editorconfig properties lock patch diff srt vtt bib'
	).split(' ')
);

/** The extension of a file name, lower case ('' when it has none); a bare name such as `Makefile` counts as one. */
function extensionOf(name: string): string {
	const base = name.split(/[\\/]/).pop() ?? '';
	const dot = base.lastIndexOf('.');
	return (dot >= 0 ? base.slice(dot + 1) : base).toLowerCase();
}

/** Whether a file of this name and type is one that goes to a model as text. */
export function isTextFile(name: string, mimeType: string): boolean {
	const type = mimeType.toLowerCase().split(';')[0].trim();
	if (type.startsWith('text/') || TEXT_TYPES.has(type) || type.endsWith('+json') || type.endsWith('+xml')) return true;
	// Systems often give source files no type, or a wrong one (".ts" as a video stream).
	return TEXT_EXTENSIONS.has(extensionOf(name));
}

const strict = new TextDecoder('utf-8', { fatal: true });

/** The text of these bytes when they are UTF-8 without NUL characters (which no text file holds), else null. */
export function decodeText(bytes: Uint8Array): string | null {
	try {
		const text = strict.decode(bytes);
		return text.includes('\u0000') ? null : text;
	} catch {
		return null;
	}
}
