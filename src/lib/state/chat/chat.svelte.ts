// The open conversation: its live messages, the answer streaming into it, and the actions of
// the chat view (send, stop, retry, model choice).
import { SvelteMap } from 'svelte/reactivity';
import { raceAbort } from '../../agent/race-abort';
import type { TurnDeps, TurnEvent } from '../../agent/turn-deps';
import { listActiveMessages, listCompactedBy } from '../../db/compaction-verbs';
import type { ChatSettings, MessageRow, SessionRow, VersionPoint } from '../../db/schema';
import { readImages, readPrunedOriginal } from '../../db/message-verbs';
import { getSession } from '../../db/session-verbs';
import { watch } from '../../db/watch';
import { createSession, finalizeSession } from '../../sessions/session-lifecycle';
import { setSessionModel } from '../../sessions/edit-session';
import type { Services } from '../app/services';
import { parseCommand } from '../../commands/parse-command';
import { describeError, STORAGE_FULL_MESSAGE, throttle } from '../shared/turn-helpers';
import { holdOpenLock, isWorkLockHeld, localWork, withWorkLock } from '../../sessions/work-lock';
import { goto } from '$app/navigation';
import type { CompactionsState } from '../compaction/compaction.svelte';
import { UnsavedAnswers } from './unsaved-answers.svelte';
import { showVersion, startVersion, VersionConflictError } from '../../db/version-verbs';
import type { ModelChoice } from '../app/services';
import { loadTurnCode, type TurnCode } from './turn-code';
import type { DraftAttachment, DraftAttachments } from './draft-attachments.svelte';

const LIVE_RENDER_MS = 50;
/** The meter counts what is being typed once typing pauses this long. */
const DRAFT_COUNT_MS = 300;
const ANSWERING_HERE = 'Wait for the current answer, or stop it.';
const ANSWERING_ELSEWHERE = 'This session is answering in another tab. Wait for it to finish, or stop it there.';
const COMPACTING_HERE = 'This session is being compacted. Wait for it to finish, or cancel it.';

/** A turn's work, given its dependencies and the agent loop (loaded on first use). */
type Turn = (deps: TurnDeps, input: Parameters<TurnCode['retryTurn']>[1], turns: TurnCode) => ReturnType<TurnCode['retryTurn']>;

/** What the new chat on show keeps of the assistant it starts from. */
export interface DraftAssistant {
	id: string;
	name: string;
	starters: string[];
}

export function liveKey(key: [string, number]): string {
	return `${key[0]}:${key[1]}`;
}

export class ChatState {
	sessionId = $state<string | null>(null);
	session = $state<SessionRow | null>(null);
	/** Replaced whole by each read, never changed in place: no deep proxy over hundreds of rows. */
	messages = $state.raw<MessageRow[]>([]);
	/** False until the open session's first read finished (then `session` null means it is gone). */
	loaded = $state(false);
	/** Text of answers this tab is streaming ('' until the first words), ahead of their database checkpoints. */
	live = new SvelteMap<string, string>();
	/** What the provider of such an answer is doing before its first words ("Loading the model…"). */
	liveStatus = new SvelteMap<string, string>();
	running = new SvelteMap<string, AbortController>();
	error = $state<string | null>(null);
	/** Provider and model for the next new session (the draft view before the first send). */
	draft = $state({ provider: '', model: '' });
	/** Chat settings of the draft view, given to the session its first message makes (then the defaults again). */
	draftSettings = $state.raw<ChatSettings | undefined>(undefined);
	/** The assistant the new chat on show starts from (named in the header, its starter prompts offered), until its first message. */
	draftAssistant = $state.raw<DraftAssistant | null>(null);
	/** The model new chats used before the assistant's chat was put on show, for when it is left. */
	draftBeforeAssistant: ModelChoice | null = null;
	busy = $derived(this.sessionId !== null && this.running.has(this.sessionId));
	/** The original rows of compactions the user chose to see, by compaction id (read on demand). */
	compacted = new SvelteMap<string, MessageRow[]>();
	/** Tokens of the text in the Message box (counted in the worker, debounced). */
	draftTokens = $state(0);
	/** Answers storage refused to keep: shown from memory, with Copy, until a write lands. */
	unsaved: UnsavedAnswers;
	/**
	 * Commands typed in a new chat and what they answered: shown there, never stored (a command
	 * alone begins no session). Gone once a session opens, the first message's included.
	 */
	draftRows = $state.raw<MessageRow[]>([]);
	/** The open session's rows as the transcript shows them (unsaved answers in place). */
	shown = $derived.by(() => (this.sessionId === null ? this.draftRows : this.unsaved.overlay(this.messages)));
	#services: Services;
	#compactions: CompactionsState;
	/** Stored sessions opened in this tab that have not had a turn yet (the hygiene check). Not shown, so not reactive. */
	// eslint-disable-next-line svelte/prefer-svelte-reactivity
	#resumed = new Set<string>();
	#draftTimer: ReturnType<typeof setTimeout> | undefined;
	#stop: (() => void) | null = null;
	/** Releases the shared lock that tells sweeps this tab shows the open session. */
	#releaseOpen: () => void = () => {};
	/** The session `on_session_finalize` already fired for in this visit, if any. */
	#finalizedId: string | null = null;
	/** What is attached to the unsent message, per session like its text (its code loads with the first attachment). */
	#attachments = $state.raw<DraftAttachments | null>(null);
	#reading: Promise<void> = Promise.resolve();
	/** Sessions whose first answer this tab looked at for a title (at most once each). Not shown, so not reactive. */
	// eslint-disable-next-line svelte/prefer-svelte-reactivity
	#titleAsked = new Set<string>();
	/** Unsent text per session ('' for the new-session view), kept across page changes. */
	#drafts = new SvelteMap<string, string>();
	/**
	 * Model changes this tab is still applying, by session (the row written, the pass after it
	 * done). A message sent meanwhile waits for it: else it would meet that pass's lock and be
	 * told the session is answering in another tab, or go out with the old model.
	 */
	// eslint-disable-next-line svelte/prefer-svelte-reactivity
	#modelChanges = new Map<string, Promise<void>>();

	get draftText(): string {
		return this.#drafts.get(this.sessionId ?? '') ?? '';
	}

	set draftText(text: string) {
		if (text) this.#drafts.set(this.sessionId ?? '', text);
		else this.#drafts.delete(this.sessionId ?? '');
		this.#countDraft(text);
	}

	/** The attachments of the open session's unsent message, as chips show them. */
	get draftAttachments(): DraftAttachment[] {
		return this.#attachments?.list(this.sessionId ?? '') ?? [];
	}

	/** How many attachments are ready to send (and how many are images), and whether any is still being read. */
	get attachmentStatus(): { ready: number; reading: boolean; images: number } {
		return this.#attachments?.status(this.sessionId ?? '') ?? { ready: 0, reading: false, images: 0 };
	}

	/** Attaches files to the open session's unsent message (each read, or refused with its reason). */
	attach(files: readonly File[]): Promise<void> {
		if (!files.length) return Promise.resolve();
		const session = this.sessionId ?? '';
		const reading = (async () => {
			this.#attachments ??= new (await import('./draft-attachments.svelte')).DraftAttachments();
			await this.#attachments.add(session, files);
		})();
		const all = Promise.all([this.#reading, reading]).then(() => {});
		this.#reading = all.catch(() => {});
		return reading;
	}

	/** Settles once every file attached so far is read (or refused): a message sent meanwhile waits for them. */
	attachmentsRead(): Promise<void> {
		return this.#reading;
	}

	detach(key: string): void {
		this.#attachments?.remove(this.sessionId ?? '', key);
	}

	/** Whether the model the next message goes to reads images. */
	readsImages(): boolean {
		return this.#services.readsImages(this.session ? { provider: this.session.provider, model: this.session.model } : this.#services.currentModel(this.draft));
	}

	/** The open session, when its provider is not set up in this browser (removed, or the session came from another one). */
	missingProvider(): SessionRow | null {
		const session = this.session;
		return session && !this.#services.modelOptions().some((o) => o.provider === session.provider) ? session : null;
	}

	/** The name of the model the next message goes to, as the picker shows it. */
	modelLabel(): string {
		const choice = this.session ? { provider: this.session.provider, model: this.session.model } : this.#services.currentModel(this.draft);
		return this.#services.modelOptions().find((o) => o.provider === choice.provider && o.model === choice.model)?.label ?? choice.model;
	}

	constructor(services: Services, compactions: CompactionsState) {
		this.#services = services;
		this.#compactions = compactions;
		this.unsaved = new UnsavedAnswers(services.db);
	}

	#countDraft(text: string): void {
		clearTimeout(this.#draftTimer);
		if (!text.trim() || parseCommand(text.trim())) {
			this.draftTokens = 0;
			return;
		}
		const model = this.session?.model ?? this.#services.currentModel(this.draft).model;
		this.#draftTimer = setTimeout(async () => {
			try {
				const { counts } = await this.#services.worker.countTexts([text], model);
				if (this.draftText === text) this.draftTokens = counts[0];
			} catch {
				this.draftTokens = 0;
			}
		}, DRAFT_COUNT_MS);
	}

	/** "Show compacted messages": reads the rows one compaction took out of the context. */
	async showCompacted(compactionId: string): Promise<void> {
		const id = this.sessionId;
		if (!id || this.compacted.has(compactionId)) return;
		const rows = await listCompactedBy(this.#services.db, id, compactionId);
		// Another session opened meanwhile: these rows are not its.
		if (this.sessionId === id) this.compacted.set(compactionId, rows);
	}

	/** The bytes of an image or file a message shows, or null once they are gone (the session was deleted). */
	async image(message: MessageRow, id: string): Promise<Blob | null> {
		return (await readImages(this.#services.db, message.session_id, [id])).get(id) ?? null;
	}

	/** "Show full result" on a pruned tool output: the result it stands for, as it came. */
	prunedOriginal(stub: MessageRow): Promise<MessageRow | null> {
		return readPrunedOriginal(this.#services.db, stub);
	}

	hideCompacted(compactionId: string): void {
		this.compacted.delete(compactionId);
	}

	/** A compaction moved the thread into a child session: follow it if it is the one shown. */
	async followRotation(from: string, to: string): Promise<void> {
		if (this.sessionId === from) await goto(`/s/${to}`);
	}

	open(id: string | null): void {
		// A new chat starts without the commands typed in the last one.
		if (id === null) this.draftRows = [];
		if (id === this.sessionId) return;
		this.finalizeOpen();
		this.#finalizedId = null;
		this.#stop?.();
		this.#releaseOpen();
		this.#releaseOpen = id ? holdOpenLock(this.#services.profile.name, id) : () => {};
		this.sessionId = id;
		this.session = null;
		this.messages = [];
		this.compacted.clear();
		this.error = null;
		this.loaded = false;
		this.draftTokens = 0;
		if (!id) return;
		this.#resumed.add(id);
		this.#countDraft(this.draftText);
		void this.#services.refreshTokens(id);
		const db = this.#services.db;
		this.#stop = watch(
			// Only the live rows: a session with thousands of compacted rows opens as fast as a short one.
			async () => ({ session: await getSession(db, id), messages: await listActiveMessages(db, id) }),
			({ session, messages }) => {
				if (this.sessionId !== id) return;
				this.session = session ?? null;
				this.messages = messages;
				this.loaded = true;
			}
		);
	}

	/** `on_session_finalize` for the open session: the user left it, or the tab is going. Once per visit. */
	finalizeOpen(): void {
		if (!this.sessionId || this.#finalizedId === this.sessionId) return;
		this.#finalizedId = this.sessionId;
		void finalizeSession(this.#services.sessionContext(), this.sessionId);
	}

	/** The session layer already finalized this session (`/new`, `/reset`). */
	noteFinalized(id: string): void {
		this.#finalizedId = id;
	}

	/** The tab is visible again: a later exit finalizes once more. */
	resume(): void {
		this.#finalizedId = null;
	}

	close(): void {
		this.#stop?.();
		this.#releaseOpen();
		this.unsaved.stop();
	}

	/** The session a message goes to: the open one, or a new one for the draft view. */
	async ensureSession(): Promise<string> {
		if (this.sessionId) return this.sessionId;
		const choice = this.#services.currentModel(this.draft);
		const from = this.draftAssistant;
		const row = await createSession(this.#services.sessionContext(), {
			...choice,
			named_provider: this.#services.namedProvider(choice.provider),
			chat_settings: this.draftSettings,
			...(from ? { assistant: { id: from.id, name: from.name } } : {})
		});
		this.draftSettings = undefined;
		// The next new chat is a plain one again, with the model new chats used before.
		if (from) {
			this.draftAssistant = null;
			this.draft = this.draftBeforeAssistant ?? this.draft;
			this.draftBeforeAssistant = null;
		}
		this.open(row.id);
		// A session born in this tab is not a resumed one.
		this.#resumed.delete(row.id);
		return row.id;
	}

	/** The new chat on show starts from the assistant of this id (its address names it), or from Settings (null); its code loads on first use. */
	async startFromId(id: string | null): Promise<void> {
		if (id === (this.draftAssistant?.id ?? null)) return;
		const { startFromAssistantId } = await import('../assistants/assistant-draft');
		await startFromAssistantId(this, this.#services.db, id);
	}

	/** The settings of the chat on show: the open session's, or the draft's. */
	get chatSettings(): ChatSettings | undefined {
		return this.sessionId ? this.session?.chat_settings : this.draftSettings;
	}

	/**
	 * Whether sending `text` would go into a full context with nothing to compact it on its own
	 * (the chat's compaction is off): the Message box asks first.
	 */
	fullWithoutCompaction(text: string): boolean {
		const session = this.session;
		return session?.chat_settings?.compaction === 'off' && !parseCommand(text.trim()) && session.token_estimate + this.draftTokens >= this.#services.windowFor(session.model);
	}

	/** Why a message cannot go to the open session now (an answer is streaming here or in another tab), or null. */
	async sendRefusal(): Promise<string | null> {
		const id = this.sessionId;
		if (!id) return null;
		await this.#modelChanges.get(id);
		if (this.running.has(id)) return ANSWERING_HERE;
		const here = localWork(this.#services.profile.name, id);
		// An idle pass after the last answer gives way to a new message; a compaction the user asked for does not.
		if (here === 'compaction') return this.#compactions.progress.get(id)?.reason === 'manual' ? COMPACTING_HERE : null;
		if (here) return ANSWERING_HERE;
		return (await isWorkLockHeld(this.#services.profile.name, id)) ? ANSWERING_ELSEWHERE : null;
	}

	/**
	 * Sends what the user typed, with what they attached (its images left out when
	 * `withoutImages`). `onCreated` runs when the draft view became a new session (to give it its
	 * address). Text and attachments that could not be stored go back to the draft of the session
	 * they were meant for, whichever session is open by then, and the error is thrown.
	 */
	async send(text: string, onCreated?: (id: string) => Promise<void>, options: { withoutImages?: boolean } = {}): Promise<void> {
		const trimmed = text.trim();
		const command = parseCommand(trimmed);
		const drafted = this.sessionId ?? '';
		// A command takes no attachments: they stay for the next message.
		const none = { sent: { refs: [], blobs: [] }, taken: [] };
		const { sent, taken } = (!command && this.#attachments?.take(drafted, options.withoutImages)) || none;
		if (!trimmed && !sent.refs.length) return void this.#attachments?.restore(drafted, taken);
		// A command in a new chat runs there and begins no session.
		if (command && this.sessionId === null) {
			try {
				return await this.#runDraftCommand(trimmed);
			} catch (error) {
				// Its code could not load: the command goes back to the Message box.
				if (!this.#drafts.get('')) this.#drafts.set('', text);
				throw error;
			}
		}
		let target = drafted;
		try {
			const created = this.sessionId === null;
			const sessionId = await this.ensureSession();
			target = sessionId;
			if (created) await onCreated?.(sessionId);
			await this.#modelChanges.get(sessionId);
			if (command) {
				// Commands' code loads with the first command, not with the page.
				const { runTypedCommand } = await import('./command-host');
				const recordedIn = await runTypedCommand(this.#services, sessionId, trimmed);
				void this.#services.refreshTokens(recordedIn ?? sessionId);
				// The session rotated (here or in another tab): show the command where it went.
				if (recordedIn && recordedIn !== sessionId) await this.followRotation(sessionId, recordedIn);
				return;
			}
			if (this.running.has(sessionId)) throw new Error(ANSWERING_HERE);
			await this.#compactions.yieldTo(sessionId);
			await this.#run(sessionId, (deps, input, turns) => turns.runTurn(deps, { ...input, text, attachments: sent }), true);
		} catch (error) {
			// #run throws only when the message was not stored: its attachments go back with its text.
			if (!this.#drafts.get(target)) this.#drafts.set(target, text);
			this.#attachments?.restore(target, taken);
			throw error;
		}
	}

	async #runDraftCommand(text: string): Promise<void> {
		const { runDraftCommand } = await import('./command-host');
		const { output, failed } = await runDraftCommand(this.#services, text);
		// A session opened meanwhile (another page, the first message): the output is no longer the view's.
		if (this.sessionId !== null) return;
		const now = Date.now();
		const row = (role: 'user' | 'assistant', content: string, status: MessageRow['status'], error?: string): MessageRow => {
			const seq = this.draftRows.length;
			return { session_id: '', seq, position: '', id: crypto.randomUUID(), role, content, status, kind: 'command', active: 1, compacted_by: null, created_at: now, ...(error ? { error } : {}) };
		};
		this.draftRows = [...this.draftRows, row('user', text, 'complete')];
		if (output !== undefined) this.draftRows = [...this.draftRows, row('assistant', output, failed ? 'error' : 'complete', failed ? output : undefined)];
	}

	async retry(): Promise<void> {
		const sessionId = this.sessionId;
		if (!sessionId || this.running.has(sessionId)) return;
		await this.#run(sessionId, (deps, input, turns) => turns.retryTurn(deps, input));
	}

	stop(sessionId = this.sessionId): void {
		if (sessionId) this.running.get(sessionId)?.abort();
	}

	/** The model the next new session starts with (a provider just connected, say), whichever session is open. */
	chooseForNewSessions(provider: string, model: string): void {
		this.draft = { provider, model };
	}

	async setModel(provider: string, model: string): Promise<void> {
		if (!this.sessionId) {
			this.draft = { provider, model };
			return;
		}
		const id = this.sessionId;
		// One change after another: each pass sees the model chosen last.
		const change = (this.#modelChanges.get(id) ?? Promise.resolve()).then(() => this.#applyModel(id, provider, model));
		const settled = change.catch(() => {});
		this.#modelChanges.set(id, settled);
		try {
			await change;
		} finally {
			if (this.#modelChanges.get(id) === settled) this.#modelChanges.delete(id);
		}
	}

	async #applyModel(id: string, provider: string, model: string): Promise<void> {
		await setSessionModel(this.#services.sessionContext(), id, provider, model, this.#services.namedProvider(provider));
		await this.#services.refreshTokens(id);
		// Items the new model cannot read, or a window that no longer holds the conversation.
		if (!this.running.has(id)) await this.#compactions.afterModelChange(id).catch(() => {});
	}

	/**
	 * "Edit": the message and everything after it become an earlier version (kept, and shown
	 * again with the version switcher), and the edited text is sent in their place. Throws,
	 * with nothing changed, when the edit could not be stored (the editor keeps the text).
	 */
	async editMessage(seq: number, text: string): Promise<void> {
		const sessionId = this.#idle();
		const index = this.messages.findIndex((row) => row.seq === seq);
		if (index < 0) throw new VersionConflictError();
		const after = index > 0 ? this.messages[index - 1].seq : null;
		const now = Date.now();
		const { attachments } = this.messages[index];
		// The edited message keeps what was attached: both versions show the same stored bytes.
		const edited = { id: crypto.randomUUID(), role: 'user' as const, content: text, status: 'complete' as const, kind: 'message' as const, created_at: now, ...(attachments ? { attachments } : {}) };
		await this.#compactions.yieldTo(sessionId);
		await this.#run(
			sessionId,
			async (deps, input, turns) => {
				const { rows } = await startVersion(deps.db, sessionId, after, seq, [edited]);
				input.onEvent?.({ type: 'user_stored', key: [sessionId, rows[0].seq] });
				return turns.retryTurn(deps, input);
			},
			true
		);
	}

	/**
	 * "Regenerate": the answer (with its turn's tool rounds and what followed) becomes an
	 * earlier version and the question is answered again, with `model` when given.
	 */
	async regenerate(seq: number, model?: ModelChoice): Promise<void> {
		const sessionId = this.#idle();
		const question = this.messages.findLast((row) => row.seq < seq && row.role === 'user' && row.kind === 'message');
		if (!question) throw new Error('There is no question to answer again.');
		if (model) await this.setModel(model.provider, model.model);
		await this.#compactions.yieldTo(sessionId);
		await this.#run(sessionId, async (deps, input, turns) => {
			await startVersion(deps.db, sessionId, question.seq, seq);
			return turns.retryTurn(deps, input);
		});
	}

	/** The versions at the place before row `index` of `shown`, when there is more than one. */
	versionBefore(index: number): VersionPoint | null {
		const after = index > 0 ? this.shown[index - 1].seq : null;
		const point = this.session?.versions?.find((p) => p.after === after);
		return point && point.count > 1 ? point : null;
	}

	/** The version switcher: shows version `version` at the place after row `after`. */
	async showVersion(after: number | null, version: number): Promise<void> {
		const sessionId = this.#idle();
		await withWorkLock(this.#services.profile.name, sessionId, { kind: 'command', refusal: () => new Error(ANSWERING_ELSEWHERE) }, () =>
			showVersion(this.#services.db, sessionId, after, version)
		);
		void this.#services.refreshTokens(sessionId);
	}

	/** The open session, if no answer is streaming into it here. */
	#idle(): string {
		const sessionId = this.sessionId;
		if (!sessionId) throw new Error('There is no session open.');
		if (this.running.has(sessionId)) throw new Error(ANSWERING_HERE);
		return sessionId;
	}

	/** "Branch from here": a new session with the open one's history up to `seq`; returns its id. */
	async branchFrom(seq: number): Promise<string> {
		if (!this.sessionId) throw new Error('There is no session to branch from.');
		const { branchSession } = await import('../../sessions/branch-session');
		const branch = await branchSession(this.#services.sessionContext(), this.sessionId, seq);
		void this.#services.refreshTokens(branch.id);
		return branch.id;
	}

	/**
	 * Runs a turn. Failures show in the chat; a failure before the user's message was stored
	 * is thrown instead, so the Message box can give the text back.
	 */
	async #run(sessionId: string, turn: Turn, hasUserText = false): Promise<void> {
		let stored = !hasUserText;
		let finishedIn = sessionId;
		let completed = false;
		const controller = new AbortController();
		this.running.set(sessionId, controller);
		this.error = null;
		// Each update re-renders the answer's Markdown: at most one render per frame budget.
		const showText = throttle((key: string, text: string) => this.live.set(key, text), LIVE_RENDER_MS);
		const onEvent = (event: TurnEvent) => {
			if (event.type === 'user_stored') stored = true;
			// Marks the row as this tab's: it shows "…" until text arrives, not "another tab".
			if (event.type === 'started') this.live.set(liveKey(event.key), '');
			if (event.type === 'text') showText(liveKey(event.key), event.text);
			if (event.type === 'status') this.liveStatus.set(liveKey(event.key), event.text);
			// The stored row takes over once its status leaves 'streaming' (see MessageView).
			if (event.type === 'finished') showText.cancel();
			// Storage refused the answer: keep it here, shown and copyable, until it can be stored.
			if (event.type === 'unsaved') {
				showText.cancel();
				this.unsaved.keep(event);
				// A full disk also gets the chat's notice, with its Export button.
				if (this.sessionId === event.key[0] && describeError(event.cause) === STORAGE_FULL_MESSAGE) this.error = STORAGE_FULL_MESSAGE;
			}
			// The thread continues in a child session: it is busy too, and the view follows it.
			if (event.type === 'rotated') {
				finishedIn = event.to;
				this.running.set(event.to, controller);
				void this.followRotation(event.from, event.to);
			}
		};
		try {
			const resumed = this.#resumed.delete(sessionId);
			// The agent loop loads on first use (see turn-code.ts), not with the page.
			const [deps, turns] = await raceAbort(
				Promise.all([this.#services.turnDeps(sessionId, { resumed, onProgress: this.#compactions.listener(sessionId) }), loadTurnCode()]),
				controller.signal
			);
			// The lock tells other tabs (and a reload's repair pass) that this answer is alive.
			await withWorkLock(
				this.#services.profile.name,
				sessionId,
				{ kind: 'turn', controller, refusal: () => new Error(ANSWERING_ELSEWHERE) },
				async (signal) => {
					const result = await turn(deps, { sessionId, signal, onEvent }, turns);
					completed = result.status === 'complete';
					return result;
				}
			);
		} catch (error) {
			// Not stored: throw, so the Message box gives the text back (a Stop is no failure).
			if (!stored) throw controller.signal.aborted ? error : new Error(describeError(error), { cause: error });
			if (controller.signal.aborted) return;
			if (this.sessionId === sessionId) this.error = describeError(error);
		} finally {
			showText.cancel();
			for (const id of sessionId === finishedIn ? [sessionId] : [sessionId, finishedIn]) {
				this.running.delete(id);
				for (const key of [...this.live.keys()]) if (key.startsWith(`${id}:`)) this.live.delete(key);
				for (const key of [...this.liveStatus.keys()]) if (key.startsWith(`${id}:`)) this.liveStatus.delete(key);
			}
			// A token count that cannot be read or stored (storage full or lost) is no failure of the turn.
			await this.#services.refreshTokens(finishedIn).catch(() => {});
		}
		// After a finished answer, with the lock released: prune, micro-compact or summarise when due,
		// unless the next message was sent meanwhile (its turn needs the lock now).
		if (completed && !this.running.has(finishedIn)) void this.#compactions.idle(finishedIn);
		if (completed && hasUserText) void this.#titleAfterFirstAnswer(finishedIn);
	}

	/** After a session's first answer, a model names it in the background (see background-title.ts). */
	async #titleAfterFirstAnswer(sessionId: string): Promise<void> {
		if (this.#titleAsked.has(sessionId)) return;
		this.#titleAsked.add(sessionId);
		try {
			const { titleAfterFirstAnswer } = await import('./background-title');
			await titleAfterFirstAnswer(this.#services, sessionId);
		} catch (error) {
			// The title stays the first message's first line: nothing the user has to act on.
			console.warn('The session keeps its title: the model could not write one.', error);
		}
	}
}
