// Writes many generated sessions straight into the open page's profile database, as the app
// stores them (every field of a session row and message row), in one transaction. The rows are
// made in the page, so 100,000 messages need not cross from Node. The app reads them after the
// next navigation.

/**
 * @typedef {object} SeedSpec
 * @property {number} count sessions, ids `bench-<i>` (padded to `idDigits`)
 * @property {number} perSession messages in each, user and assistant in turn
 * @property {number} [idDigits] pad the index in ids to this many digits (0: no padding)
 * @property {number} [pinnedEvery] pin every n-th session (0: none)
 * @property {string[]} [topics] when given, session i is "Session i on the <topic>" and its messages mention it
 * @property {string} [filler] text after each message's own words
 * @property {number} [tokens] stored count per message (0: none stored, counted by the app)
 * @property {{ every: number, at: number, text: string }} [rare] text added to the last message of sessions i % every === at
 * @property {string[]} [vocabulary] when given, each message's own words are `wordsPerMessage` of these, chosen by a seeded generator (instead of `filler`)
 * @property {number} [wordsPerMessage]
 * @property {number} [frames] when above 0, each answer records its request, session i's under frame i % frames (stored too)
 */

/** @param {import('@playwright/test').Page} page @param {SeedSpec} spec */
export function seedSessions(page, spec) {
	const full = { idDigits: 0, pinnedEvery: 0, topics: [], filler: 'lorem ipsum '.repeat(8), tokens: 0, rare: null, vocabulary: [], wordsPerMessage: 40, frames: 0, ...spec };
	/** Resolves to the characters of message text written. */
	return page.evaluate(async ({ count, perSession, idDigits, pinnedEvery, topics, filler, tokens, rare, vocabulary, wordsPerMessage, frames }) => {
		let state = 12345;
		const pick = () => vocabulary[(state = (state * 1103515245 + 12345) & 0x7fffffff) % vocabulary.length];
		const words = () => Array.from({ length: wordsPerMessage }, pick).join(' ');
		let chars = 0;
		const db = await new Promise((resolve, reject) => {
			const open = indexedDB.open('palimpsest-default');
			open.onsuccess = () => resolve(open.result);
			open.onerror = () => reject(open.error);
		});
		const tx = db.transaction(['sessions', 'messages', 'settings'], 'readwrite');
		const now = Date.now();
		const counted = tokens ? { tokens, encoding: 'o200k_base' } : {};
		const frameKey = (i) => `request-frame:bench-${i % frames}`;
		for (let f = 0; f < frames; f++) {
			tx.objectStore('settings').put({ key: frameKey(f), value: { target: { api: 'offline', url: '', keyed: false }, system: `Benchmark system prompt ${f}` } });
		}
		const sentOf = (i, seq) => ({ frame: frameKey(i), seqs: [[0, seq]], user_seq: seq - 1, provider: 'offline', model: 'offline-mini', body_hash: 'bench' });
		for (let i = 0; i < count; i++) {
			const id = `bench-${String(i).padStart(idDigits, '0')}`;
			const topic = topics.length ? topics[i % topics.length] : '';
			const at = now - i * 60_000;
			tx.objectStore('sessions').put({
				id, title: topic ? `Session ${i} on the ${topic}` : `Benchmark session ${i}`, title_source: 'message', session_key: `web:default:${id}`,
				created_at: at, last_activity_at: at, ended_at: null, end_reason: null, parent_session_id: null, parent_kind: null,
				archived: 0, pinned: pinnedEvery && i % pinnedEvery === 0 ? 1 : 0, profile: 'default', provider: 'offline', model: 'offline-mini',
				message_count: perSession, token_estimate: perSession * tokens, next_seq: perSession,
				compaction: { failures: 0, cooldown_until: 0, turns_since_micro: 0 }
			});
			for (let seq = 0; seq < perSession; seq++) {
				const extra = rare && i % rare.every === rare.at && seq === perSession - 1 ? rare.text : '';
				const content = `Message ${seq} of session ${i}${topic ? ` about the ${topic}` : ''}: ${vocabulary.length ? words() : filler}${extra}`;
				chars += content.length;
				tx.objectStore('messages').put({
					session_id: id, seq, id: `${id}-${seq}`, role: seq % 2 ? 'assistant' : 'user',
					content,
					status: 'complete', kind: 'message', active: 1, compacted_by: null, created_at: at, ...counted,
					...(frames && seq % 2 ? { sent: sentOf(i, seq) } : {})
				});
			}
		}
		await new Promise((resolve, reject) => {
			tx.oncomplete = resolve;
			tx.onerror = () => reject(tx.error);
		});
		db.close();
		return chars;
	}, full);
}
