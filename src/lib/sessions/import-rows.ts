// What a session or message row of an imported file may hold: every field of the stored shapes
// (db/schema.ts), with its type, its range and, for lists, their items. Anything else is dropped.
import type { CompactionKind, CompactionReason } from '../hooks/hook-payloads';
import {
	ASSISTANT_LIMITS,
	type AssistantRef,
	NO_COMPACTION_STATE,
	type Attachment,
	type FileAttachment,
	type ImageAttachment,
	TOKEN_RATIO_LIMITS,
	type CompactionMarker,
	type CompactionState,
	type LostFactEntry,
	type MarkerFacts,
	MAX_LISTED_FACTS,
	type InjectedContext,
	type MessageRow,
	type NamedProvider,
	type RanWith,
	type TitledBy,
	type SessionRow,
	type StoredResultPart,
	type StoredToolResult,
	type VersionPoint
} from '../db/schema';
import type { NativeCompaction, ToolCall, Usage } from '../providers/types';
import { cleanTitle } from '../db/clean-title';
import { isPosition } from '../db/position-clock';
import { IMAGE_TYPES, MAX_IMAGE_BYTES } from '../hooks/image-bytes';
import { MAX_ATTACHMENTS, MAX_PDF_BYTES, MAX_TEXT_FILE_BYTES } from '../attachments/attachment-limits';
import { PDF_TYPE } from '../attachments/pdf-signature';
import { isTextFile } from '../attachments/text-file';
import { parseChatSettings } from './chat-settings';
import { bool, FieldError, isPlainObject, json, list, nullable, number, oneOf, record, text, withDefault, type Parse, type Shape } from './import-schema';

/** The bounds of an import, generous for anything this app writes, far short of what breaks it. */
export const IMPORT_LIMITS = {
	/** Session, message and marker ids (this app writes 36-character UUIDs). */
	idChars: 200,
	/** Titles, thread keys, provider, model, tool and plugin names. */
	labelChars: 1_000,
	/** Error texts and end reasons. */
	noteChars: 100_000,
	/** A message's text, a tool call's arguments, a plugin's injected context: the largest SSE event an answer may carry. */
	textChars: 16 * 1024 * 1024,
	/**
	 * Message positions: more than any session holds, and far below 2^53, where adding 1 to a
	 * position no longer changes it (a file with seq 1e300 made every later append collide).
	 */
	maxSeq: 1_000_000_000,
	/** Counts and token figures. */
	maxCount: 1_000_000_000_000,
	/** Times in ms since the epoch: the largest a Date holds. */
	maxTime: 8_640_000_000_000_000,
	toolCalls: 256,
	/** Plugins named as having changed one tool call's arguments. */
	argsRewriters: 100,
	/** Parts of one tool server's result. */
	resultParts: 1_000,
	/** Images a session's messages show. */
	imagesPerSession: 10_000,
	/** The bytes of every image and attached file of one file, together (decoded). */
	blobBytes: 160 * 1024 * 1024,
	injected: 64,
	/** A provider's compaction items: a few, each up to the largest event a stream may carry. */
	nativeItems: 64,
	/** Places with versions in one session, and versions at one place. */
	versionPoints: 100_000,
	versions: 1_000_000,
	sessions: 100_000,
	messagesPerSession: 1_000_000
} as const;

const L = IMPORT_LIMITS;
const id = text(L.idChars, { nonEmpty: true });
const label = text(L.labelChars);
/**
 * A title is shown in the sidebar and in confirmations: its control characters (a bell, a bidi
 * override) are left out, and one left empty reads as the app's own untitled session.
 */
const title: Parse<string> = (v, dropped) => cleanTitle(label(v, dropped)).trim() || 'New session';
const note = text(L.noteChars);
const body = text(L.textChars);
// Tool call ids are the provider's: some are long, a few local servers send empty ones.
const toolId = label;
const time = number(0, L.maxTime);
const count = number(0, L.maxCount, { integer: true });
const tokens = number(0, L.maxCount);
const flag = oneOf([0, 1] as const);

// Written as records so the compiler checks each list against its union type, both ways.
const COMPACTION_KINDS = Object.keys({ summarize: 1, micro_summarize: 1, prune_tool_results: 1, provider_native: 1 } satisfies Record<CompactionKind, 1>) as CompactionKind[];
const COMPACTION_REASONS = Object.keys({
	manual: 1,
	pre_api: 1,
	post_tool: 1,
	overflow: 1,
	gateway_hygiene: 1,
	between_turns: 1,
	proactive_prune: 1,
	provider: 1,
	unknown: 1
} satisfies Record<CompactionReason, 1>) as CompactionReason[];

const compactionState: Parse<CompactionState> = record<CompactionState>(
	{
		required: { failures: count, cooldown_until: time, turns_since_micro: count },
		optional: {}
	},
	'compaction state (an object)'
);

const toolCall = record<ToolCall>({ required: { id: toolId, name: text(L.labelChars, { nonEmpty: true }), arguments: body }, optional: {} }, 'a tool call (an object)');

const ranWith = record<RanWith>({ required: { arguments: body, changed_by: list(label, L.argsRewriters) }, optional: {} }, 'the arguments a tool ran with (an object)');

const injectedContext = record<InjectedContext>({ required: { plugin_id: label, plugin_name: label, text: body }, optional: { cut_from: count } }, 'injected context (an object)');

const trueFlag: Parse<true> = (v) => {
	if (v !== true) throw new FieldError([], v, 'true');
	return true;
};

/** A message kept in context: true or false, or 1 as a file that writes flags as numbers may say it. */
const pinnedFlag: Parse<boolean> = (v) => {
	if (v === 1) return true;
	if (typeof v !== 'boolean') throw new FieldError([], v, 'true, false or 1');
	return v;
};

const lostFact = record<LostFactEntry>(
	{
		required: { class: oneOf(['path', 'url', 'identifier', 'number', 'email', 'name', 'instruction'] as const), text: note, seq: number(-L.maxSeq, L.maxSeq) },
		optional: { added: trueFlag }
	},
	'a lost fact (an object)'
);

const markerFacts = record<MarkerFacts>(
	{
		required: { total: count, kept: count, lost_count: count, lost: list(lostFact, MAX_LISTED_FACTS) },
		optional: { added_at: time }
	},
	'a fact check (an object)'
);

const compactionMarker = record<CompactionMarker>(
	{
		required: {
			id,
			kind: oneOf(COMPACTION_KINDS),
			reason: oneOf(COMPACTION_REASONS),
			before_tokens: tokens,
			after_tokens: nullable(tokens),
			messages_removed: nullable(count),
			at: time
		},
		optional: { old_session_id: id, undone_at: time, edited_at: time, user_messages_folded: count, facts: markerFacts }
	},
	'a compaction marker (an object)'
);

const nativeCompaction = record<NativeCompaction>(
	{
		required: {
			api: oneOf(['openai-responses', 'anthropic'] as const),
			model: label,
			items: list(json(L.textChars), L.nativeItems),
			opaque: bool
		},
		optional: { provider: label }
	},
	"a provider's compaction (an object)"
);
/** A row's seq: below 0 for a message from another device that sorts before the first one here (sync/dexie-rows.ts). */
const seq = number(-L.maxSeq, L.maxSeq);
const seqOrStart = nullable(seq);
const versionNumber = number(1, L.versions, { integer: true });
const versionPoint = record<VersionPoint>({ required: { after: seqOrStart, shown: versionNumber, count: versionNumber }, optional: {} }, 'a place with versions (an object)');
const shelved = record<NonNullable<MessageRow['shelved']>>({ required: { after: seqOrStart, version: versionNumber }, optional: {} }, 'a shelved version (an object)');

const assistantRef = record<AssistantRef>({ required: { id, name: text(ASSISTANT_LIMITS.nameChars, { nonEmpty: true }) }, optional: {} }, 'an assistant (an object)');
/** The assistant a chat was started from: only shown, so one that does not fit is dropped and counted, the session kept. */
const parseAssistantRef: Parse<AssistantRef> = (value, dropped) => {
	try {
		return assistantRef(value, dropped);
	} catch (error) {
		if (!(error instanceof FieldError)) throw error;
		dropped.fields += 1;
		return undefined as unknown as AssistantRef;
	}
};

/** A session row as a file carries it: its profile and origin are the receiving profile's to set. */
export type ImportedSession = Omit<SessionRow, 'profile' | 'import_id' | 'version_shown' | 'tip'>;

/** How each field of a session row is read, here and where a synced session is read. */
export const SESSION_SHAPE: Shape<ImportedSession> = {
	required: {
		id,
		title,
		title_source: oneOf(['auto', 'message', 'user'] as const),
		session_key: text(L.labelChars, { nonEmpty: true }),
		created_at: time,
		last_activity_at: time,
		ended_at: nullable(time),
		end_reason: nullable(note),
		parent_session_id: nullable(id),
		parent_kind: nullable(oneOf(['compression', 'branch', 'delegate'] as const)),
		archived: flag,
		pinned: flag,
		provider: label,
		model: label,
		message_count: count,
		token_estimate: tokens,
		next_seq: number(0, L.maxSeq, { integer: true }),
		compaction: withDefault(compactionState, () => ({ ...NO_COMPACTION_STATE }))
	},
	optional: {
		token_ratio: number(...TOKEN_RATIO_LIMITS),
		versions: list(versionPoint, L.versionPoints),
		named_provider: record<NamedProvider>({ required: { id: label, name: label }, optional: { base_url: text(2_000), preset: label } }, "a provider's name (an object)"),
		// Hostile like the rest: what does not fit is dropped and counted, the other settings kept.
		chat_settings: parseChatSettings,
		assistant: parseAssistantRef,
		titled_by: record<TitledBy>({ required: { model: label }, optional: { usage: record<Usage>({ required: { input_tokens: count, output_tokens: count }, optional: {} }, 'token usage (an object)') } }, 'the model that wrote the title (an object)')
	}
};

// Which version is on show where, and what a row appended joins, are read again from `versions`
// and the rows (see db/legacy-conversation.ts).
export const parseSessionRow: Parse<ImportedSession> = record<ImportedSession>(SESSION_SHAPE, 'a session (an object)', { ignored: ['profile', 'import_id', 'version_shown', 'tip'] });

/** A link a tool result shows: only http(s), which the app never fetches itself. */
const link: Parse<string> = (v, dropped) => {
	const uri = label(v, dropped);
	if (!/^https?:\/\//i.test(uri)) throw new FieldError([], v, 'an http(s) address');
	return uri;
};

/** The widest or tallest image an import takes, in pixels. */
const MAX_IMAGE_SIDE = 100_000;

type PartOf<T extends StoredResultPart['type']> = Extract<StoredResultPart, { type: T }>;

const RESULT_PARTS: { [T in StoredResultPart['type']]: Parse<PartOf<T>> } = {
	text: record<PartOf<'text'>>({ required: { type: oneOf(['text'] as const), text: body }, optional: {} }, 'a text part'),
	note: record<PartOf<'note'>>({ required: { type: oneOf(['note'] as const), text: note }, optional: {} }, 'a note'),
	structured: record<PartOf<'structured'>>({ required: { type: oneOf(['structured'] as const), json: body }, optional: {} }, 'structured content'),
	resource_link: record<PartOf<'resource_link'>>({ required: { type: oneOf(['resource_link'] as const), uri: link, name: label }, optional: { description: note } }, 'a link'),
	resource: record<PartOf<'resource'>>({ required: { type: oneOf(['resource'] as const), uri: label, text: body }, optional: { mimeType: label } }, 'an embedded resource'),
	// Its bytes come in the session's `images`, checked there (validate-import.ts).
	image: record<PartOf<'image'>>(
		{
			required: { type: oneOf(['image'] as const), id, mimeType: oneOf([...IMAGE_TYPES]), size: number(1, MAX_IMAGE_BYTES, { integer: true }) },
			optional: { width: number(1, MAX_IMAGE_SIDE, { integer: true }), height: number(1, MAX_IMAGE_SIDE, { integer: true }) }
		},
		'an image'
	)
};

/** One part of a tool server's result, by its type; a part of any other type is refused. */
const resultPart: Parse<StoredResultPart> = (v, dropped) => {
	const type = isPlainObject(v) && typeof v.type === 'string' && Object.hasOwn(RESULT_PARTS, v.type) ? (v.type as StoredResultPart['type']) : null;
	if (!type) throw new FieldError([], v, 'a part of a tool result (text, note, structured, resource_link, resource or image)');
	return RESULT_PARTS[type](v, dropped);
};

const toolResult = record<StoredToolResult>(
	{ required: { server: label, is_error: bool, parts: list(resultPart, L.resultParts) }, optional: {} },
	"a tool server's result (an object)"
);

/** A file's name as a chip shows it: no control characters (a bidi override could disguise its extension). */
const fileName: Parse<string> = (v, dropped) => cleanTitle(label(v, dropped)).trim() || 'attachment';

const imageAttachment = record<ImageAttachment>(
	{
		required: {
			type: oneOf(['image'] as const),
			id,
			name: fileName,
			mimeType: oneOf([...IMAGE_TYPES]),
			size: number(1, MAX_IMAGE_BYTES, { integer: true }),
			width: number(1, MAX_IMAGE_SIDE, { integer: true }),
			height: number(1, MAX_IMAGE_SIDE, { integer: true })
		},
		optional: {}
	},
	'an attached image'
);

/** A text file: the PDF fields are dropped (and counted). */
const fileAttachment = record<Omit<FileAttachment, 'pages' | 'text'>>(
	{ required: { type: oneOf(['file'] as const), id, name: fileName, mimeType: label, size: number(0, MAX_TEXT_FILE_BYTES, { integer: true }) }, optional: {} },
	'an attached file'
);

/** A PDF: its size within what the Message box takes, its pages and its text as read when attached. */
const pdfAttachment = record<FileAttachment>(
	{
		required: { type: oneOf(['file'] as const), id, name: fileName, mimeType: oneOf([PDF_TYPE]), size: number(1, MAX_PDF_BYTES, { integer: true }) },
		optional: { pages: number(0, L.maxSeq, { integer: true }), text: body }
	},
	'an attached PDF'
);

/** One attachment of a message: an image, a text file (its name and type must say text) or a PDF. Its bytes come in the session's `images`. */
export const attachment: Parse<Attachment> = (v, dropped) => {
	const type = isPlainObject(v) ? v.type : undefined;
	if (type === 'image') return imageAttachment(v, dropped);
	if (type === 'file' && isPlainObject(v) && v.mimeType === PDF_TYPE) return pdfAttachment(v, dropped);
	const file = type === 'file' ? fileAttachment(v, dropped) : null;
	if (!file || !isTextFile(file.name, file.mimeType)) throw new FieldError([], v, 'an attachment (an image, a text file or a PDF)');
	return file;
};

/**
 * A message row as a file carries it: files from before positions lack one (the import gives it).
 * What sync noted of Blobs that did not come is this device's own, never read from a file.
 */
export type ImportedMessage = Omit<MessageRow, 'sent' | 'position' | 'blobs_not_synced' | 'rank' | 'branch'> & { position?: string };

const position: Parse<string> = (v) => {
	if (!isPosition(v)) throw new FieldError([], v, 'a position (26 characters of Crockford base32)');
	return v;
};

/** How each field of a message row is read, here and where a synced message is read. */
export const MESSAGE_SHAPE: Shape<ImportedMessage> = {
	required: {
		session_id: id,
		seq,
		id,
		role: oneOf(['system', 'user', 'assistant', 'tool'] as const),
		content: body,
		status: oneOf(['complete', 'streaming', 'aborted', 'error', 'incomplete'] as const),
		kind: oneOf(['message', 'summary', 'command', 'notice'] as const),
		active: flag,
		compacted_by: nullable(id),
		created_at: time
	},
	optional: {
		position,
		pinned: pinnedFlag,
		tool_calls: list(toolCall, L.toolCalls),
		tool_call_id: toolId,
		tool_result: toolResult,
		ran_with: ranWith,
		tokens: count,
		encoding: label,
		error: note,
		injected: list(injectedContext, L.injected),
		compaction: compactionMarker,
		native: nativeCompaction,
		model: label,
		provider: label,
		tokens_per_second: number(0, 1_000_000),
		shelved,
		retired_by: label,
		attachments: list(attachment, MAX_ATTACHMENTS),
		images_pruned: trueFlag,
		usage: record<Usage>({ required: { input_tokens: count, output_tokens: count }, optional: {} }, 'token usage (an object)')
	}
};

// A request's recipe is not imported: the frames it points to stay in the profile that sent it.
// Its rank and branch are given again from the file's order and versions (see db/legacy-conversation.ts).
export const parseMessageRow: Parse<ImportedMessage> = record<ImportedMessage>(MESSAGE_SHAPE, 'a message (an object)', { ignored: ['sent', 'blobs_not_synced', 'rank', 'branch'] });
