// "What the model received": a sent request rebuilt from its recipe, as the wire body, a curl
// command and a readable list of its parts (the summary and each plugin's context marked).
// Pure: the caller reads the recipe's frame and rows.
import { splitServerInstructions } from '../tool-servers/server-instructions';
import { contextRows } from '../db/context-rows';
import type { MessageRow, SentRequest } from '../db/schema';
import type { RequestParams, ToolSchema } from '../providers/types';
import { buildWireRequest, formatCurl, type WireRequest } from '../providers/wire-request';
import type { WireApi } from '../providers/wire-target';
import { asSent, expandRuns, hashJson, injectedOf, rebuildChatRequest, type RequestFrame } from './request-recipe';
import type { RequestImages } from './build-request';
import { decodedBytes } from '../hooks/image-bytes';
import { formatBytes } from '../hooks/plain-data';

export interface RequestPart {
	/** What the part is: "System prompt", "Summary", "You", "Assistant", "Tool result" (saying so when plugins changed its arguments). */
	label: string;
	text: string;
	/** Plugin context appended to this message's outgoing copy, by plugin name. */
	injected?: { plugin: string; text: string }[];
	/** What the user attached to it, named ("photo.png, image/png, 1200 × 800, 210 KB"): the body has the bytes. */
	attachments?: string[];
	/** The message the attachments belong to, whose images the dialog shows as thumbnails. */
	source?: MessageRow;
}

export interface DescribedRequest {
	api: WireApi;
	wire: WireRequest;
	/** The body as indented JSON. */
	json: string;
	/** null for the offline model: nothing goes over the network. */
	curl: string | null;
	/** Whether the rebuilt body is the one that was sent (false if rows were changed or deleted since). */
	exact: boolean;
	model: string;
	parts: RequestPart[];
	tools: ToolSchema[];
	contextManagement: SentRequest['context_management'] | null;
	/** What the chat asked beside its messages, in words ("Temperature 0.3", …); empty when nothing. */
	params: string[];
}

/** The chat's parameters of a request, each in words, in the order Chat settings lists them. */
export function describeParams(params: RequestParams | undefined): string[] {
	if (!params) return [];
	const words: [keyof RequestParams, string][] = [['temperature', 'Temperature'], ['top_p', 'Top P'], ['max_tokens', 'Max answer tokens'], ['reasoning_effort', 'Reasoning effort']];
	return words.flatMap(([key, label]) => (params[key] === undefined ? [] : [`${label} ${typeof params[key] === 'number' ? params[key].toLocaleString('en') : params[key]}`]));
}

function partLabel(row: MessageRow): string {
	if (row.kind === 'summary') return row.native ? 'Summary (the provider’s own compaction)' : 'Summary (compaction)';
	// Its text begins by saying what the tool ran with.
	if (row.role === 'tool' && row.ran_with) return `Tool result (arguments changed by ${changedBy(row.ran_with.changed_by)})`;
	return { user: 'You', assistant: 'Assistant', tool: 'Tool result', system: 'System' }[row.role];
}

function changedBy(plugins: readonly string[]): string {
	if (!plugins.length) return 'a plugin';
	return `${plugins.length > 1 ? 'the plugins' : 'the plugin'} ${plugins.join(', ')}`;
}

function describeParts(sent: SentRequest, frame: RequestFrame, rows: readonly MessageRow[]): RequestPart[] {
	const wanted = new Set(expandRuns(sent.seqs));
	const carried = contextRows(rows.filter((row) => wanted.has(row.seq)).map(asSent));
	const injected = injectedOf(sent, rows).map((item) => ({ plugin: item.plugin_name, text: item.text }));
	// Each tool server's instructions show as a part of their own, named after the server.
	const parts: RequestPart[] = frame.system
		? splitServerInstructions(frame.system).map(({ server, text }) => ({ label: server === null ? 'System prompt' : `Instructions from the tool server "${server}"`, text }))
		: [];
	for (const row of carried) {
		const part: RequestPart = { label: partLabel(row), text: row.native?.opaque ? '(opaque: only the provider can read it)' : row.content };
		if (row.seq === sent.user_seq && injected.length) part.injected = injected;
		if (row.attachments?.length) {
			part.source = row;
			// An image compaction stopped sending went as a note, not as bytes.
			const unsent = (a: { type: string }) => a.type === 'image' && row.images_pruned === true;
			part.attachments = row.attachments.map((a) =>
				[a.name, a.mimeType, ...(a.type === 'image' ? [`${a.width} × ${a.height}`] : []), ...(a.type === 'file' && a.pages ? [pagesOf(a.pages)] : []), formatBytes(a.size), ...(unsent(a) ? ['not sent again'] : [])].join(', ')
			);
		}
		parts.push(part);
	}
	return parts;
}

const pagesOf = (pages: number) => `${pages} page${pages === 1 ? '' : 's'}`;

/** Base64 longer than this is shown as what it is, not character by character. */
const SHOWN_BASE64_CHARS = 200;

/** An image's or PDF's bytes in the body, as the dialog shows them: their type and size (Copy as curl has them all). */
function shortenImages(this: unknown, key: string, value: unknown): unknown {
	if (typeof value !== 'string' || value.length <= SHOWN_BASE64_CHARS) return value;
	// A data: URL (the OpenAI formats), or an Anthropic image or document source's `data`.
	const url = /^data:(image\/[a-z]+|application\/pdf);base64,/.exec(value);
	const base64 = url ? value.slice(url[0].length) : value;
	if (!url && (key !== 'data' || !/^[A-Za-z0-9+/]+={0,2}$/.test(value.slice(0, 4096)))) return value;
	const pdf = url ? url[1] === 'application/pdf' : typeof this === 'object' && this !== null && (this as { media_type?: unknown }).media_type === 'application/pdf';
	return `${url ? url[0] : ''}<${formatBytes(decodedBytes(base64))} of ${pdf ? 'PDF' : 'image'} data, left out here; Copy as curl has it>`;
}

export async function describeRequest(sent: SentRequest, frame: RequestFrame, rows: readonly MessageRow[], images?: RequestImages): Promise<DescribedRequest> {
	const request = rebuildChatRequest(sent, frame, rows, images);
	const wire = buildWireRequest(frame.target, request);
	return {
		api: frame.target.api,
		wire,
		json: JSON.stringify(wire.body, shortenImages, 2),
		curl: frame.target.api === 'offline' ? null : formatCurl(wire, frame.target.api),
		exact: (await hashJson(wire.body)) === sent.body_hash,
		model: sent.model,
		parts: describeParts(sent, frame, rows),
		tools: frame.tools ?? [],
		contextManagement: sent.context_management ?? null,
		params: describeParams(frame.params)
	};
}
