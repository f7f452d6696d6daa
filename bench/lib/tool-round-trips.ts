// A tool call's round trip to an MCP server, in Chromium, two ways: the SDK's Client with its
// Streamable HTTP transport called straight from the page (the floor), and the app's own path:
// the tool-server worker (the same SDK, behind limited-fetch and the result reader) reached
// through comlink, as a turn calls it. The two take turns call by call, so both see the same
// machine and the same server; every result is checked against the other's.
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { startToolServerWorker } from '../../src/lib/tool-servers/tool-server-client';
import type { ServerStatus } from '../../src/lib/tool-servers/types';
import { timed } from './timing';

export type CallPath = 'sdk' | 'app';

export interface ToolCase {
	/** How the figures are labelled. */
	label: string;
	tool: string;
	args: (round: number) => Record<string, unknown>;
}

export interface ToolRoundTripOptions {
	warmup: number;
	runs: number;
	/** Characters of the `echo` message. */
	echoChars: number;
}

export interface ToolRoundTrips {
	/** Per call (ms), after the warm-up, by case and path. */
	samples: Record<string, Record<CallPath, number[]>>;
	/** First connection (ms): the SDK's initialize and tools/list; the app's worker started, connected and its tool list read. */
	connectMs: Record<CallPath, number>;
	/** Cases whose results differed between the two paths (none when both read the same text). */
	disagreements: string[];
	tools: number;
}

const TIMEOUT_MS = 60_000;

/** `chars` characters of plain prose, so the message is text a tool would really be sent. */
function echoMessage(chars: number): string {
	const sentence = 'The parser keeps its place in the stream and reads each event once, whatever the chunk boundaries. ';
	return sentence.repeat(Math.ceil(chars / sentence.length)).slice(0, chars);
}

export function toolCases(echoChars: number): ToolCase[] {
	const message = echoMessage(echoChars);
	return [
		{ label: 'get-sum', tool: 'get-sum', args: (round) => ({ a: round, b: 2 * round + 1 }) },
		{ label: `echo of ${Math.round(echoChars / 1024)} KB`, tool: 'echo', args: () => ({ message }) }
	];
}

/** The text of a result's first text block, whichever way it came. */
function firstText(content: unknown): string {
	const blocks = Array.isArray(content) ? content : [];
	const text = blocks.find((block) => block && typeof block === 'object' && block.type === 'text');
	return typeof text?.text === 'string' ? text.text : '';
}

export async function measureToolRoundTrips(url: string, { warmup, runs, echoChars }: ToolRoundTripOptions): Promise<ToolRoundTrips> {
	const cases = toolCases(echoChars);
	const sdk = new Client({ name: 'palimpsest-bench', version: '1' }, { capabilities: {} });
	const sdkConnect = await timed(async () => {
		await sdk.connect(new StreamableHTTPClientTransport(new URL(url)));
		return sdk.listTools();
	});
	const app = startToolServerWorker();
	try {
		const appConnect = await timed<ServerStatus>(() => app.api.connect({ id: 'bench', url, authorization: '' }));
		const status = appConnect.value;
		if (status.state !== 'connected') throw new Error(`The app could not connect to the reference server: ${JSON.stringify(status)}`);
		const call: Record<CallPath, (tool: string, args: Record<string, unknown>) => Promise<string>> = {
			sdk: async (tool, args) => firstText((await sdk.callTool({ name: tool, arguments: args }, undefined, { timeout: TIMEOUT_MS })).content),
			app: async (tool, args) => {
				const view = await app.calls.call({ serverId: 'bench', callId: crypto.randomUUID(), tool, args, timeoutMs: TIMEOUT_MS }, () => {});
				if (view.isError) throw new Error(`${tool} failed through the app: ${view.forModel.slice(0, 300)}`);
				const part = view.parts.find((p) => p.type === 'text');
				return part?.type === 'text' ? part.text : '';
			}
		};
		const samples: ToolRoundTrips['samples'] = Object.fromEntries(cases.map((c) => [c.label, { sdk: [], app: [] }]));
		const disagreements = new Set<string>();
		for (let round = 0; round < warmup + runs; round++) {
			for (const c of cases) {
				const order: CallPath[] = round % 2 ? ['app', 'sdk'] : ['sdk', 'app'];
				const texts: Partial<Record<CallPath, string>> = {};
				for (const path of order) {
					const { ms, value } = await timed(() => call[path](c.tool, c.args(round)));
					texts[path] = value;
					if (round >= warmup) samples[c.label][path].push(ms);
				}
				if (!texts.sdk || texts.sdk !== texts.app) disagreements.add(c.label);
			}
		}
		return {
			samples,
			connectMs: { sdk: sdkConnect.ms, app: appConnect.ms },
			disagreements: [...disagreements],
			tools: status.tools.tools.length
		};
	} finally {
		app.close();
		await sdk.close();
	}
}
