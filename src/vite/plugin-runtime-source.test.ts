// The plugin runtime as built (one classic script, as a plugin's worker runs it), under the
// attack of a plugin whose getters are sloppy-mode code: they walk the stack each time the
// runtime reads, copies or sends them, and must find none of the runtime's functions, so
// nothing they post with reaches the page. Node runs the same V8 rules for CallSite.getFunction
// and `.caller` as Chromium; the getters are the browser test's own classic script.
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { constants, runInThisContext } from 'node:vm';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { buildPluginRuntime } from './plugin-runtime-source.js';

const ROOT = join(import.meta.dirname, '..', '..');
const CLASSIC = join(ROOT, 'tests', 'e2e', 'fixtures', 'plugins', 'stack-thief-classic.js');

/** The plugin: lays the classic script's getters everywhere ctx takes a value; /report posts with whatever they found. */
const PLUGIN = `
const thief = globalThis.stackThief;
export function register(ctx) {
	ctx.register_tool(thief.tool(() => 'tool ran'));
	ctx.register_command('baited', () => thief.bait('result'), { description: thief.bait('meta'), args_hint: thief.bait('hint') });
	ctx.log.info('bait', thief.bait('log'));
	ctx.storage.set('bait', thief.bait('stored')).catch(() => {});
	ctx.storage.keys(thief.bait('prefix')).catch(() => {});
	ctx.has_plugin(thief.bait('id'));
	ctx.register_command('report', () => {
		const found = thief.captured();
		for (const fn of found) {
			try { fn({ t: 'storage', id: 987654, op: 'set', key: 'captured', value: 'through the runtime' }); } catch {}
		}
		return { reads: thief.reads(), captured: found.map((fn) => fn.name || String(fn).slice(0, 80)) };
	});
}`;

interface PageEnd {
	ask(message: Record<string, unknown>): Promise<{ ok: boolean; value?: unknown; error?: unknown }>;
	/** Every message the runtime's port delivered, answers included. */
	received: Record<string, unknown>[];
	close(): void;
}

/** Runs the built runtime as a worker's classic script would, and hands it a port: the page's end. */
async function startRuntime(code: string): Promise<PageEnd> {
	let onPort: ((event: MessageEvent) => void) | undefined;
	const scope = {
		addEventListener(type: string, listener: (event: MessageEvent) => void) {
			if (type === 'message') onPort = listener;
		},
		postMessage() {}
	};
	vi.stubGlobal('self', scope);
	// A classic script: global code, strict only if it says so itself; its import() of the
	// plugin is Node's own.
	runInThisContext(code, { filename: 'plugin-runtime.js', importModuleDynamically: constants.USE_MAIN_CONTEXT_DEFAULT_LOADER });
	const { port1, port2 } = new MessageChannel();
	onPort?.(new MessageEvent('message', { ports: [port2] }));
	const received: Record<string, unknown>[] = [];
	const waiting = new Map<number, (answer: { ok: boolean; value?: unknown; error?: unknown }) => void>();
	port1.onmessage = (event) => {
		const message = event.data as Record<string, unknown>;
		received.push(message);
		if (message.t === 'answer') waiting.get(message.id as number)?.(message as never);
		// The page answers the runtime's own questions (registrations, storage) with nothing.
		else if (typeof message.id === 'number') port1.postMessage({ t: 'answer', id: message.id, ok: true, value: undefined });
	};
	let next = 1;
	return {
		received,
		close: () => port1.close(),
		ask(message) {
			const id = next++;
			return new Promise((resolve) => {
				waiting.set(id, resolve);
				port1.postMessage({ ...message, id });
			});
		}
	};
}

afterEach(() => {
	vi.unstubAllGlobals();
	vi.restoreAllMocks();
	delete (globalThis as { stackThief?: unknown }).stackThief;
});

describe('the built plugin runtime', () => {
	it('is strict code: getters of sloppy plugin code find none of its functions on their stack, and post nothing with them', async () => {
		const code = await buildPluginRuntime(ROOT);
		// The plugin's sloppy code, loaded before it as importScripts would.
		runInThisContext(await readFile(CLASSIC, 'utf8'), { filename: CLASSIC });
		// Node imports no blob: URL; the runtime's import of the plugin gets its source as data.
		vi.spyOn(URL, 'createObjectURL').mockReturnValue(`data:text/javascript,${encodeURIComponent(PLUGIN)}`);
		vi.spyOn(URL, 'revokeObjectURL').mockImplementation(() => {});
		const page = await startRuntime(code);

		expect(await page.ask({ t: 'load', source: PLUGIN, url: 'https://x.test/thief.js' })).toMatchObject({ ok: true });
		const started = await page.ask({ t: 'start', pluginId: 'thief', plugins: [] });
		expect(started.ok).toBe(true);
		const commands = (started.value as { kind: string; handle: number; name: unknown }[]).filter((record) => record.kind === 'command');
		const handle = (name: string) => commands.find((record) => record.name === name)?.handle;
		expect(await page.ask({ t: 'call', handle: handle('baited'), args: ['', {}] })).toMatchObject({ ok: true, value: { text: 'result' } });
		const report = await page.ask({ t: 'call', handle: handle('report'), args: ['', {}] });
		// Asked after anything the report posted, on the same port: a forged write would be here by now.
		await page.ask({ t: 'ping' });

		// The getters ran, inside the runtime's reads and copies; they saw only their own frames.
		expect(report.value).toEqual({ reads: expect.any(Number), captured: [] });
		expect((report.value as { reads: number }).reads).toBeGreaterThan(5);
		expect(page.received.filter((message) => message.id === 987654)).toEqual([]);
		page.close();
	});
});
