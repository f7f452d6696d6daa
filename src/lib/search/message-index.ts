// The full-text index of one profile: a MiniSearch index with one document per message (its
// text) and one per session title, plus what ranking and catching up need per session (title,
// archived, last activity, and the fingerprint of the row it was indexed from). Pure: the
// caller reads rows and hands them in, so tests need no database.
import MiniSearch, { type Options, type Query, type SearchResult } from 'minisearch';
import type { MessageRow, SessionRow } from '../db/schema';
import { prefixTerms, prefixWeight } from './prefix-terms';
import { isCjkTerm, tokenize } from './tokenize';

/** Bumped when what is stored changes shape: an older snapshot is then rebuilt. */
const FORMAT = 1;
const SEP = '\n';
const TITLE = 't';
/** A title match counts this much more than the same words in a message. */
const TITLE_BOOST = 1.5;
/** Recency: a session active today weighs up to this much more than a very old one. */
const RECENCY_BOOST = 0.5;
const RECENCY_HALF_LIFE_DAYS = 30;
const DAY_MS = 86_400_000;
/** A word being typed matches as a prefix from this many characters (one or two would match most of the index). */
const PREFIX_MIN = 3;

interface Doc {
	id: string;
	text: string;
}

export interface SessionMeta {
	title: string;
	archived: boolean;
	lastActivityAt: number;
	/** What the session row looked like when indexed: a different one means catch up. */
	fingerprint: string;
}

export interface RankedSession {
	sessionId: string;
	/** The best matching message, or null when only the title matched. */
	seq: number | null;
	/** Index terms that matched (for highlighting). */
	terms: string[];
	score: number;
}

/** A session as a snapshot keeps it: its meta and the seqs of its documents (null: the title). */
type StoredSession = [string, SessionMeta, Array<number | null>];

const OPTIONS: Options<Doc> = {
	fields: ['text'],
	tokenize,
	processTerm: (term) => term,
	autoVacuum: { minDirtCount: 2000, minDirtFactor: 0.2, batchSize: 2000, batchWait: 20 }
};

/** What in a session row changes when anything the index holds may have changed. */
export function fingerprintOf(row: SessionRow): string {
	return [row.title, row.archived, row.next_seq, row.message_count, row.token_estimate, row.last_activity_at].join('|');
}

/** Messages whose text is indexed: what the user and model said, command output, summaries. */
export function indexable(row: MessageRow): boolean {
	return row.kind !== 'notice' && typeof row.content === 'string' && row.content.length > 0;
}

function docId(sessionId: string, seq: number | null): string {
	return `${sessionId}${SEP}${seq === null ? TITLE : seq}`;
}

function parseDocId(id: string): { sessionId: string; seq: number | null } {
	const at = id.lastIndexOf(SEP);
	const tail = id.slice(at + 1);
	return { sessionId: id.slice(0, at), seq: tail === TITLE ? null : Number(tail) };
}

export class MessageIndex {
	#search: MiniSearch<Doc>;
	#sessions = new Map<string, SessionMeta>();
	#docs = new Map<string, Set<string>>();

	constructor(search = new MiniSearch<Doc>(OPTIONS), sessions: StoredSession[] = []) {
		this.#search = search;
		for (const [id, meta, seqs] of sessions) {
			this.#sessions.set(id, meta);
			this.#docs.set(id, new Set(seqs.map((seq) => docId(id, seq))));
		}
	}

	/** Sessions indexed, with what they were indexed from. */
	get sessions(): ReadonlyMap<string, SessionMeta> {
		return this.#sessions;
	}

	get documentCount(): number {
		return this.#search.documentCount;
	}

	#docsOf(sessionId: string): Set<string> {
		let set = this.#docs.get(sessionId);
		if (!set) this.#docs.set(sessionId, (set = new Set()));
		return set;
	}

	#put(id: string, text: string): void {
		const docs = this.#docsOf(parseDocId(id).sessionId);
		if (docs.has(id)) this.#search.discard(id);
		this.#search.add({ id, text });
		docs.add(id);
	}

	#drop(id: string): void {
		const docs = this.#docs.get(parseDocId(id).sessionId);
		if (!docs?.delete(id)) return;
		this.#search.discard(id);
	}

	/** The session row: its title document and what ranking needs. */
	putSession(row: SessionRow): void {
		const old = this.#sessions.get(row.id);
		this.#sessions.set(row.id, { title: row.title, archived: row.archived === 1, lastActivityAt: row.last_activity_at, fingerprint: fingerprintOf(row) });
		if (old?.title !== row.title) this.#put(docId(row.id, null), row.title);
	}

	/** One message row, added or replaced (a row that is not indexable is taken out). */
	putMessage(row: MessageRow): void {
		if (indexable(row)) this.#put(docId(row.session_id, row.seq), row.content);
		else this.#drop(docId(row.session_id, row.seq));
	}

	removeMessage(sessionId: string, seq: number): void {
		this.#drop(docId(sessionId, seq));
	}

	/** Seqs of the session's indexed messages. */
	messageSeqs(sessionId: string): number[] {
		const seqs: number[] = [];
		for (const id of this.#docs.get(sessionId) ?? []) {
			const { seq } = parseDocId(id);
			if (seq !== null) seqs.push(seq);
		}
		return seqs;
	}

	/** The session and every document of it. */
	removeSession(sessionId: string): void {
		for (const id of this.#docs.get(sessionId) ?? []) this.#search.discard(id);
		this.#docs.delete(sessionId);
		this.#sessions.delete(sessionId);
	}

	/** Replaces everything indexed for a session with this row and these messages. */
	setSession(row: SessionRow, messages: readonly MessageRow[]): void {
		const keep = new Set<number>();
		this.putSession(row);
		for (const message of messages) {
			this.putMessage(message);
			keep.add(message.seq);
		}
		for (const seq of this.messageSeqs(row.id)) if (!keep.has(seq)) this.removeMessage(row.id, seq);
	}

	/**
	 * Sessions matching every term of `query` (the last one as a prefix while it is being typed),
	 * best first: relevance of their best document, a little for further matches, and recency.
	 */
	search(query: string, now = Date.now()): RankedSession[] {
		const terms = tokenize(query);
		if (!terms.length) return [];
		const results = this.#search.search(this.#query(terms, !/\s$/.test(query)), {
			combineWith: 'AND',
			boostDocument: (id: string) => (id.endsWith(SEP + TITLE) ? TITLE_BOOST : 1)
		});
		const best = new Map<string, { result: SearchResult; sum: number }>();
		for (const result of results) {
			const { sessionId } = parseDocId(result.id);
			const seen = best.get(sessionId);
			if (!seen) best.set(sessionId, { result, sum: result.score });
			else seen.sum += result.score;
		}
		const ranked: RankedSession[] = [];
		for (const [sessionId, { result, sum }] of best) {
			const meta = this.#sessions.get(sessionId);
			const ageDays = meta ? Math.max(0, now - meta.lastActivityAt) / DAY_MS : Infinity;
			const relevance = result.score + 0.1 * (sum - result.score);
			const score = relevance * (1 + RECENCY_BOOST * 2 ** (-ageDays / RECENCY_HALF_LIFE_DAYS));
			ranked.push({ sessionId, seq: parseDocId(result.id).seq, terms: result.terms, score });
		}
		return ranked.sort((a, b) => b.score - a.score || (this.#sessions.get(b.sessionId)?.lastActivityAt ?? 0) - (this.#sessions.get(a.sessionId)?.lastActivityAt ?? 0));
	}

	/** The query for these terms: while typing, the last one stands for the words it begins. */
	#query(terms: string[], typing: boolean): Query {
		const last = terms[terms.length - 1];
		if (!typing || (last.length < PREFIX_MIN && !isCjkTerm(last))) return { combineWith: 'AND', queries: terms };
		const expansions = prefixTerms(this.#search, last);
		if (!expansions) return { combineWith: 'AND', queries: terms.map((term, i) => ({ combineWith: 'AND', queries: [term], prefix: i === terms.length - 1 })) };
		// A prefix nothing begins with still goes in, so that AND finds nothing.
		const words = expansions.length ? expansions : [last];
		return { combineWith: 'AND', queries: [...terms.slice(0, -1), { combineWith: 'OR', queries: words, boostTerm: (term) => prefixWeight(last, term) }] };
	}

	/** Everything needed to load the index again, as one string. */
	serialize(): string {
		const sessions: StoredSession[] = [...this.#sessions].map(([id, meta]) => [id, meta, [...(this.#docs.get(id) ?? [])].map((doc) => parseDocId(doc).seq)]);
		return JSON.stringify({ format: FORMAT, index: this.#search, sessions });
	}

	/** The index a `serialize` string holds; throws when it is damaged or of another format. */
	static parse(text: string): MessageIndex {
		const data = JSON.parse(text) as { format?: number; index?: unknown; sessions?: StoredSession[] };
		if (data.format !== FORMAT || !data.index || !Array.isArray(data.sessions)) throw new Error('The search index is of another format.');
		return new MessageIndex(MiniSearch.loadJS(data.index as Parameters<typeof MiniSearch.loadJS>[0], OPTIONS), data.sessions);
	}
}
