// What the app keeps and shows of a tool server (a Model Context Protocol server the user
// points it at), and the shapes that cross between the tool-server worker and the page. A
// server is untrusted: everything here that came from one was read and bounded first
// (read-tool-list.ts, read-tool-result.ts).
import type { IssuerPin } from './issuer-pin';

/** A configured server, as stored in the profile's settings (its secrets never leave them). */
export interface ToolServerConfig {
	id: string;
	url: string;
	/** An optional Authorization header value, kept like an API key: never exported, shown or given to plugins. */
	authorization: string;
	added_at: number;
	/** The server's tools the user switched off, by the server's own names. */
	disabled_tools: string[];
	/** Tools the user allowed for good ("Always allow"), by the server's own names. */
	always_allowed: string[];
	/** What `initialize` said last time, so a row reads well while the server is away. */
	info?: ServerInfo;
	/** OAuth sign-in, when the server asked for it: kept like an API key. */
	oauth?: StoredOAuth;
}

export interface StoredOAuth {
	client?: Record<string, unknown>;
	tokens?: Record<string, unknown>;
	/** The authorization server signed in with, and its endpoints: the tokens go to no other (see issuer-pin.ts). */
	pin?: IssuerPin;
}

export interface ServerInfo {
	name: string;
	version: string;
	/** The server's instructions for the model, bounded; '' when it gave none. */
	instructions: string;
}

/** One tool of a server, read and bounded. */
export interface ServerTool {
	/** The server's own name for it (what tools/call takes). */
	name: string;
	/** Plain text, bounded. */
	title?: string;
	description: string;
	/** A JSON Schema object every provider takes (type "object" at the root). */
	inputSchema: Record<string, unknown>;
}

/** What reading a server's tools/list gave: the tools kept, and what was left out and why. */
export interface ToolList {
	tools: ServerTool[];
	/** Plain-text notes for the server's row ("1,000 more tools were left out: a server may offer at most 500."). */
	notes: string[];
}

/** One part of a tool's result as the transcript shows it. Text parts are shown as text, never as HTML. */
export type ResultPart =
	| { type: 'text'; text: string }
	| { type: 'image'; mimeType: string; data: string }
	| { type: 'resource_link'; uri: string; name: string; description?: string }
	| { type: 'resource'; uri: string; mimeType?: string; text: string }
	| { type: 'structured'; json: string }
	| { type: 'note'; text: string };

/**
 * An image a message shows: its bytes are kept apart from the message row, as a Blob of the same
 * session (see BlobRow), named by `id`.
 */
export interface ImageRef {
	type: 'image';
	id: string;
	mimeType: string;
	/** Bytes. */
	size: number;
	width?: number;
	height?: number;
}

/** A part of a result as a message row keeps it: an image by reference to its bytes. */
export type KeptPart = Exclude<ResultPart, { type: 'image' }> | ImageRef;

/** The bytes of an image a result gave, under the id its part refers to. */
export interface ImageBytes {
	id: string;
	type: string;
	data: Blob;
}

/** A tool's result as the tool-server worker gives it: the parts to keep, their images' bytes apart. */
export interface CallResult {
	isError: boolean;
	forModel: string;
	parts: KeptPart[];
	images: ImageBytes[];
}

/** A tool's result, read and bounded: what the transcript shows and what the model is sent. */
export interface ToolResultView {
	isError: boolean;
	/** What the model is sent: text, cut to a bound with a note saying so. */
	forModel: string;
	/** What the transcript shows. */
	parts: ResultPart[];
}

/** The state of a server's connection, for its row. */
export type ServerStatus =
	| { state: 'connecting' }
	| { state: 'connected'; info: ServerInfo; tools: ToolList }
	/** `signIn`: the server answered 401 and offers OAuth sign-in. */
	| { state: 'failed'; error: string; signIn?: boolean };

/** Progress of a call, from the server's notifications. */
export interface CallProgress {
	progress: number;
	total?: number;
	message?: string;
}
