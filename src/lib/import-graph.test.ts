// The import graph of src/ has no cycle, type-only imports included: a module's place in the
// layers must be readable from its imports alone, and a value cycle makes evaluation order decide
// whether a constant is still undefined when it is read.
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, extname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

const SRC = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const LIB = join(SRC, 'lib');
const SOURCE = /\.(ts|js|mjs|svelte)$/;

function listSources(dir: string): string[] {
	return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
		const path = join(dir, entry.name);
		if (entry.isDirectory()) return listSources(path);
		return SOURCE.test(entry.name) ? [path] : [];
	});
}

/** The script blocks of a component, or the whole file. */
function scriptsOf(path: string, text: string): string[] {
	if (extname(path) !== '.svelte') return [text];
	return [...text.matchAll(/<script\b[^>]*>([\s\S]*?)<\/script>/g)].map((m) => m[1]);
}

/**
 * Every module a file names in `import … from`, `import type`, `export … from` or a type's
 * `import('…')`. A call to `import()` is left out: it loads lazily, after both modules ran.
 */
function specifiersOf(path: string): string[] {
	const found: string[] = [];
	for (const script of scriptsOf(path, readFileSync(path, 'utf8'))) {
		const source = ts.createSourceFile(path, script, ts.ScriptTarget.Latest, true, ts.ScriptKind.TS);
		const visit = (node: ts.Node): void => {
			if ((ts.isImportDeclaration(node) || ts.isExportDeclaration(node)) && node.moduleSpecifier && ts.isStringLiteral(node.moduleSpecifier)) {
				found.push(node.moduleSpecifier.text);
			} else if (ts.isImportTypeNode(node) && ts.isLiteralTypeNode(node.argument) && ts.isStringLiteral(node.argument.literal)) {
				found.push(node.argument.literal.text);
			}
			ts.forEachChild(node, visit);
		};
		visit(source);
	}
	return found;
}

function resolveSpecifier(from: string, specifier: string, files: Set<string>): string | undefined {
	const bare = specifier.replace(/\?.*$/, '');
	let base: string;
	if (bare.startsWith('$lib/')) base = join(LIB, bare.slice('$lib/'.length));
	else if (bare.startsWith('.')) base = resolve(dirname(from), bare);
	else return undefined;
	const candidates = [base, `${base}.ts`, `${base}.js`, base.replace(/\.js$/, '.ts'), join(base, 'index.ts'), join(base, 'index.js')];
	return candidates.find((candidate) => files.has(candidate));
}

export function buildImportGraph(root: string): Map<string, string[]> {
	const paths = listSources(root);
	const files = new Set(paths);
	const graph = new Map<string, string[]>();
	for (const path of paths) {
		const targets = specifiersOf(path)
			.map((specifier) => resolveSpecifier(path, specifier, files))
			.filter((target): target is string => target !== undefined);
		graph.set(path, [...new Set(targets)]);
	}
	return graph;
}

/**
 * One cycle per strongly connected component (Tarjan), each as the path that closes it,
 * e.g. ['a', 'b', 'a'].
 */
export function findCycles(graph: Map<string, string[]>): string[][] {
	let counter = 0;
	const index = new Map<string, number>();
	const low = new Map<string, number>();
	const stack: string[] = [];
	const onStack = new Set<string>();
	const components: string[][] = [];
	const connect = (node: string): void => {
		index.set(node, counter);
		low.set(node, counter++);
		stack.push(node);
		onStack.add(node);
		for (const next of graph.get(node) ?? []) {
			if (!index.has(next)) {
				connect(next);
				low.set(node, Math.min(low.get(node)!, low.get(next)!));
			} else if (onStack.has(next)) {
				low.set(node, Math.min(low.get(node)!, index.get(next)!));
			}
		}
		if (low.get(node) !== index.get(node)) return;
		const component: string[] = [];
		let member: string;
		do {
			member = stack.pop()!;
			onStack.delete(member);
			component.push(member);
		} while (member !== node);
		if (component.length > 1 || (graph.get(node) ?? []).includes(node)) components.push(component);
	};
	for (const node of graph.keys()) if (!index.has(node)) connect(node);
	return components.map((component) => closeCycle(graph, new Set(component)));
}

/** A path from the component's first node back to itself, staying inside the component. */
function closeCycle(graph: Map<string, string[]>, component: Set<string>): string[] {
	const start = [...component].sort()[0];
	const cameFrom = new Map<string, string>();
	const queue = [start];
	while (queue.length > 0) {
		const node = queue.shift()!;
		for (const next of graph.get(node) ?? []) {
			if (!component.has(next)) continue;
			if (next === start) {
				const path = [start];
				for (let at: string | undefined = node; at !== undefined && at !== start; at = cameFrom.get(at)) path.splice(1, 0, at);
				return [...path, start];
			}
			if (!cameFrom.has(next)) {
				cameFrom.set(next, node);
				queue.push(next);
			}
		}
	}
	return [start, start];
}

describe('import graph', () => {
	it('names the files of a cycle, type-only imports included', () => {
		const graph = new Map([
			['a', ['b']],
			['b', ['c']],
			['c', ['a', 'd']],
			['d', []],
			['e', ['e']]
		]);
		expect(findCycles(graph)).toEqual([
			['a', 'b', 'c', 'a'],
			['e', 'e']
		]);
	});

	it('has no cycle under src/, type-only imports included', () => {
		const graph = buildImportGraph(SRC);
		expect(graph.size).toBeGreaterThan(300);
		const cycles = findCycles(graph).map((cycle) => cycle.map((path) => relative(SRC, path)).join(' → '));
		expect(cycles, 'import cycles under src/').toEqual([]);
	});
});
