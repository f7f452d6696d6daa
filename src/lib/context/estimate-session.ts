// A session's request estimate: what the next request would really cost. The session's tally
// (session-tallies.ts) holds the count of every live row and follows every commit, so after a
// new message only that message is counted (in the worker, unless its text was counted just
// before, as a draft is); the estimate is ready then, and the new counts and the total are
// stored on their rows and the session in one short write behind it. Follows the provider's own
// count once it reported one.
import type { PalimpsestDb } from '../db/database';
import type { MessageRow } from '../db/schema';
import type { ContextWorker } from './context-client';
import { costText } from './context-rows';
import { anchoredTotal, anchorParts } from './anchor-estimate';
import { composeEstimate, encodingForModel, type EncodingName, type EstimateMessage, type RequestTotals } from './count-tokens';
import { sessionTallies } from './session-tallies';
import { imagesOf, type UnstoredCount } from './session-tally';
import { toolTexts } from './tool-texts';
import type { WireApi } from '../providers/wire-target';
import type { Size as ImageSize } from '../attachments/image-limits';

/**
 * What images cost, by the rule of the wire format they are sent in (none where no image is
 * sent). The rules load with the first image: a session without one never asks for them.
 */
async function imageTokens(sizes: readonly ImageSize[], api: WireApi = 'offline'): Promise<number> {
	if (!sizes.length || api === 'offline') return 0;
	const { imageTokens: tokensOf } = await import('../attachments/image-tokens');
	return sizes.reduce((sum, size) => sum + tokensOf(api, size.width, size.height), 0);
}

/** What the images of these rows cost when sent in wire format `api` (none once compaction stopped sending them). */
export function imageTokensOf(rows: ReadonlyArray<Parameters<typeof imagesOf>[0]>, api: WireApi = 'offline'): Promise<number> {
	return imageTokens(rows.flatMap((row) => imagesOf(row)), api);
}

/**
 * Counts stored per IndexedDB call: fewer than 50, the size up to which Dexie tells other tabs
 * which keys a write changed (a larger one reaches them as "the whole table").
 */
const SLICE = 48;

export interface RequestExtras {
	systemPrompt: string;
	toolSchemas?: readonly unknown[];
	/** Plugin context for this request, when it is known. */
	injected?: readonly string[];
	reservedOutput?: number;
	/** The wire format images go in, whose published rule counts them ('offline' or none: no image is sent). */
	imageApi?: WireApi;
}

/** Only text without a usable cached count crosses to the worker, not the whole transcript. */
export function estimateMessages(rows: readonly MessageRow[], model: string): EstimateMessage[] {
	const wanted = encodingForModel(model);
	return rows.map((row) =>
		row.tokens !== undefined && row.encoding === wanted ? { content: '', tokens: row.tokens, encoding: row.encoding } : { content: costText(row) }
	);
}

export interface SessionEstimate {
	/** What the meter shows and the thresholds compare: anchored on the provider's count. */
	total: number;
	/** This app's own count of the request, reserved output excluded (what usage is compared with). */
	counted: number;
	/** What the total is made of: each part on the same scale as the total, so they add up to it. */
	parts: RequestTotals;
	/** The rows of the conversation in the request. */
	rows: number;
	/** This app's count of each tool, in the order of `toolSchemas` (together: `parts.toolSchemas` before scaling). */
	toolCounts: number[];
	/** Provider's count over this app's, when a provider reported one (see SessionRow.token_ratio). */
	ratio?: number;
	/**
	 * Settles once the new counts and the total are stored (on the rows, as the session's
	 * token_estimate); rejects if they could not be. Waiting for it is optional: a failure is
	 * also logged, and the counts are stored again by the next estimate.
	 */
	stored: Promise<void>;
}

export async function estimateSession(
	db: PalimpsestDb,
	counter: Pick<ContextWorker, 'countTexts'>,
	sessionId: string,
	model: string,
	extras: RequestExtras
): Promise<SessionEstimate | null> {
	const tallies = sessionTallies(db);
	const state = await tallies.current(sessionId, encodingForModel(model));
	if (!state) return null;
	const { tally, session } = state;
	// What the session holds now; a commit while the worker counts is for the next estimate.
	const known = { tokens: tally.counted, rows: tally.included, images: tally.imageSizes() };
	const uncounted = tally.uncounted();
	const tools = toolTexts(extras.toolSchemas);
	const around = [extras.systemPrompt, ...tools, ...(extras.injected ?? [])];
	const texts = [...uncounted.map((row) => row.text), ...around.filter(Boolean)];
	const counts = texts.length ? (await counter.countTexts(texts, model)).counts : [];
	uncounted.forEach((row, index) => tally.setCount(row.seq, row.text, counts[index]));
	let next = uncounted.length;
	const [systemPrompt, ...rest] = around.map((text) => (text ? counts[next++] : 0));
	const toolCounts = rest.slice(0, tools.length);
	const toolSchemas = toolCounts.reduce((a, b) => a + b, 0);
	const injected = rest.slice(tools.length);
	const images = await imageTokens(known.images, extras.imageApi);
	const totals = composeEstimate({
		messages: known.tokens + counts.slice(0, uncounted.length).reduce((a, b) => a + b, 0) + images,
		messageCount: known.rows,
		systemPrompt,
		hasSystemPrompt: extras.systemPrompt !== '',
		toolSchemas,
		injected: injected.reduce((a, b) => a + b, 0),
		reservedOutput: extras.reservedOutput
	});
	const parts = anchorParts(totals, session.token_ratio);
	const total = parts.total;
	// Nothing new: no write, so live queries (the sidebar, other tabs) do not wake up.
	const newTotal = tallies.storedTotal(sessionId) === total ? null : total;
	const unstored = tally.unstored();
	const estimate = { total, counted: totals.total - totals.reservedOutput, parts, rows: known.rows, toolCounts, ratio: session.token_ratio };
	if (!unstored.length && newTotal === null) return { ...estimate, stored: Promise.resolve() };
	tally.markStoring(unstored, true);
	const stored = tallies.write(sessionId, newTotal, () => storeCounts(db, sessionId, tally.encoding, unstored, newTotal));
	stored.catch((error) => {
		// The counts stay in the tally; the next estimate stores them again.
		tally.markStoring(unstored, false);
		console.warn('Could not store the token counts', error);
	});
	return { ...estimate, stored };
}

/**
 * At most what the next request can cost, without counting anything: the tally's exact counts,
 * and one token per character (plus 8 per row) for every text it has no count of, the system
 * prompt, tool schemas and plugin context included. Infinity if the session is gone.
 */
export async function boundSession(db: PalimpsestDb, sessionId: string, model: string, extras: RequestExtras): Promise<number> {
	const state = await sessionTallies(db).current(sessionId, encodingForModel(model));
	if (!state) return Infinity;
	const chars = (text: string) => text.length;
	const texts = state.tally.counted + state.tally.uncounted().reduce((sum, row) => sum + chars(row.text) + 8, 0);
	const images = await imageTokens(state.tally.imageSizes(), extras.imageApi);
	const bound = composeEstimate({
		messages: texts + images,
		messageCount: state.tally.included,
		systemPrompt: chars(extras.systemPrompt),
		hasSystemPrompt: extras.systemPrompt !== '',
		toolSchemas: toolTexts(extras.toolSchemas).reduce((sum, text) => sum + chars(text), 0),
		injected: (extras.injected ?? []).reduce((sum, text) => sum + chars(text), 0),
		reservedOutput: extras.reservedOutput
	});
	return anchoredTotal(bound, state.session.token_ratio);
}

/**
 * One short write: each count on its row (if the row still holds the text that was counted) and
 * the session's total. In slices: a write per row costs a round trip each, one write of them
 * all a long main-thread task when a long session is counted for the first time.
 */
async function storeCounts(db: PalimpsestDb, sessionId: string, encoding: EncodingName, counts: UnstoredCount[], total: number | null): Promise<void> {
	const storeSlice = async (slice: UnstoredCount[]) => {
		const rows = await db.messages.bulkGet(slice.map(({ seq }): [string, number] => [sessionId, seq]));
		const changed = rows.flatMap((row, index) => (row && costText(row) === slice[index].text ? [{ ...row, tokens: slice[index].tokens, encoding }] : []));
		if (changed.length) await db.messages.bulkPut(changed);
	};
	await db.transaction('rw', db.sessions, db.messages, async () => {
		// The total goes with the first slice: requests of one transaction run in order anyway,
		// and need not wait for each other's answers.
		const session = total === null ? null : db.sessions.update(sessionId, { token_estimate: total });
		for (let start = 0; start < counts.length; start += SLICE) await storeSlice(counts.slice(start, start + SLICE));
		await session;
	});
}
