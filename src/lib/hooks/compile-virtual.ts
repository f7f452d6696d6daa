// For tests: a TypeScript program over files on disk plus one file held in memory, compiled as
// the published plugin API is meant to be used (strict, ES2022 modules, the DOM's types).
import ts from 'typescript';

export function compileWithVirtualFile(virtual: { name: string; text: string }, roots: readonly string[], options: { js?: boolean; skipLibCheck?: boolean } = {}): ts.Program {
	const compilerOptions: ts.CompilerOptions = {
		strict: true,
		noEmit: true,
		...(options.js === false ? {} : { allowJs: true, checkJs: true }),
		skipLibCheck: options.skipLibCheck ?? true,
		target: ts.ScriptTarget.ES2022,
		module: ts.ModuleKind.ESNext,
		moduleResolution: ts.ModuleResolutionKind.Bundler,
		lib: ['lib.es2022.d.ts', 'lib.dom.d.ts'],
		types: []
	};
	const host = ts.createCompilerHost(compilerOptions, true);
	const { getSourceFile, fileExists, readFile } = host;
	host.getSourceFile = (name, language, ...rest) =>
		name === virtual.name ? ts.createSourceFile(name, virtual.text, language, true) : getSourceFile.call(host, name, language, ...rest);
	host.fileExists = (name) => name === virtual.name || fileExists.call(host, name);
	host.readFile = (name) => (name === virtual.name ? virtual.text : readFile.call(host, name));
	return ts.createProgram([...roots], compilerOptions, host);
}
