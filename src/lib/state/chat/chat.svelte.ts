// The open conversation: its live messages, the answer streaming into it, and the actions of
// the chat view (send, stop, retry, model choice).
import { SvelteMap } from 'svelte/reactivity';
import { listActiveMessages, listCompactedBy } from '../../db/compaction-verbs';
import type { ChatSettings, MessageRow, SessionRow, VersionPoint } from '../../db/schema';
import { getSession } from '../../db/session-verbs';
import { watch } from '../../db/watch';
import { createSession, finalizeSession } from '../../sessions/session-lifecycle';
import { setSessionModel } from '../../sessions/edit-session';
import { parseCommand } from '../../commands/parse-command';
import { holdOpenLock, withWorkLock } from '../../sessions/work-lock';
import { goto } from '$app/navigation';
import type { CompactionsState } from '../compaction/compaction.svelte';
import { UnsavedAnswers } from './unsaved-answers.svelte';
import { showVersion } from '../../db/version-verbs';
import type { ModelChoice, Services } from '../app/services';
import { ANSWERING_ELSEWHERE, ANSWERING_HERE, findSendRefusal } from './answering';
import { createTitleAsker } from './ask-for-title';
import { appendCommandRows } from './command-rows';
import { MessageDrafts } from './message-drafts.svelte';
import { ModelChanges } from './model-changes';
import { runChatTurn, type Turn } from './run-chat-turn';
import { editTurn, questionOf, regenerateTurn, versionsBefore } from './version-turns';

/** What the new chat on show keeps of the assistant it starts from. */
export interface DraftAssistant {
	id: string;
	name: string;
	starters: string[];
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
	/** Answers storage refused to keep: shown from memory, with Copy, until a write lands. */
	unsaved: UnsavedAnswers;
	/** The unsent message of each session ('' for the new chat), with what is attached to it: the one on show is the Message box's. */
	readonly drafts: MessageDrafts;
	/** The original rows of compactions the user chose to see, by compaction id (read on demand). */
	compacted = new SvelteMap<string, MessageRow[]>();
	/**
	 * Commands typed in a new chat and what they answered: shown there, never stored (a command
	 * alone begins no session). Gone once a session opens, the first message's included.
	 */
	draftRows = $state.raw<MessageRow[]>([]);
	/** The open session's rows as the transcript shows them (unsaved answers in place). */
	shown = $derived.by(() => (this.sessionId === null ? this.draftRows : this.unsaved.overlay(this.messages)));
	#services: Services;
	#compactions: CompactionsState;
	/** After a session's first answer, a model names it in the background (once per session). */
	#askForTitle: (sessionId: string) => Promise<void>;
	/** Stored sessions opened in this tab that have not had a turn yet (the hygiene check). Not shown, so not reactive. */
	// eslint-disable-next-line svelte/prefer-svelte-reactivity
	#resumed = new Set<string>();
	#stop: (() => void) | null = null;
	/** Releases the shared lock that tells sweeps this tab shows the open session. */
	#releaseOpen: () => void = () => {};
	/** The session `on_session_finalize` already fired for in this visit, if any. */
	#finalizedId: string | null = null;
	#modelChanges = new ModelChanges();

	constructor(services: Services, compactions: CompactionsState) {
		this.#services = services;
		this.#compactions = compactions;
		this.unsaved = new UnsavedAnswers(services.db);
		this.drafts = new MessageDrafts(services, this);
		this.#askForTitle = createTitleAsker(services);
	}

	/** The provider and model the next message goes to: the open session's, or the new chat's. */
	get choice(): ModelChoice {
		return this.session ? { provider: this.session.provider, model: this.session.model } : this.#services.currentModel(this.draft);
	}

	/** Whether the model the next message goes to reads images. */
	readsImages(): boolean {
		return this.#services.readsImages(this.choice);
	}

	/** The open session, when its provider is not set up in this browser (removed, or the session came from another one). */
	missingProvider(): SessionRow | null {
		const session = this.session;
		return session && !this.#services.modelOptions().some((o) => o.provider === session.provider) ? session : null;
	}

	/** The name of the model the next message goes to, as the picker shows it. */
	modelLabel(): string {
		const choice = this.choice;
		return this.#services.modelOptions().find((o) => o.provider === choice.provider && o.model === choice.model)?.label ?? choice.model;
	}

	/** "Show compacted messages": reads the rows one compaction took out of the context. */
	async showCompacted(compactionId: string): Promise<void> {
		const id = this.sessionId;
		if (!id || this.compacted.has(compactionId)) return;
		const rows = await listCompactedBy(this.#services.db, id, compactionId);
		// Another session opened meanwhile: these rows are not its.
		if (this.sessionId === id) this.compacted.set(compactionId, rows);
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
		this.drafts.tokens = 0;
		if (!id) return;
		this.#resumed.add(id);
		this.drafts.count();
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
		return session?.chat_settings?.compaction === 'off' && !parseCommand(text.trim()) && session.token_estimate + this.drafts.tokens >= this.#services.windowFor(session.model);
	}

	/** Why a message cannot go to the open session now (an answer is streaming here or in another tab), or null. */
	async sendRefusal(): Promise<string | null> {
		const id = this.sessionId;
		if (!id) return null;
		await this.#modelChanges.settled(id);
		return findSendRefusal(this.#services.profile.name, id, this.running.has(id), this.#compactions);
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
		const { sent, taken } = (!command && this.drafts.take(drafted, options.withoutImages)) || none;
		if (!trimmed && !sent.refs.length) return void this.drafts.giveBack(drafted, '', taken);
		// A command in a new chat runs there and begins no session.
		if (command && this.sessionId === null) {
			try {
				return await this.#runDraftCommand(trimmed);
			} catch (error) {
				// Its code could not load: the command goes back to the Message box.
				this.drafts.giveBack('', text, taken);
				throw error;
			}
		}
		let target = drafted;
		try {
			const created = this.sessionId === null;
			const sessionId = await this.ensureSession();
			target = sessionId;
			if (created) await onCreated?.(sessionId);
			await this.#modelChanges.settled(sessionId);
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
			this.drafts.giveBack(target, text, taken);
			throw error;
		}
	}

	async #runDraftCommand(text: string): Promise<void> {
		const { runDraftCommand } = await import('./command-host');
		const { output, failed } = await runDraftCommand(this.#services, text);
		// A session opened meanwhile (another page, the first message): the output is no longer the view's.
		if (this.sessionId !== null) return;
		this.draftRows = appendCommandRows(this.draftRows, text, output, failed);
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
		await this.#modelChanges.run(id, () => this.#applyModel(id, provider, model));
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
		const turn = editTurn(sessionId, this.messages, seq, text);
		await this.#compactions.yieldTo(sessionId);
		await this.#run(sessionId, turn, true);
	}

	/**
	 * "Regenerate": the answer (with its turn's tool rounds and what followed) becomes an
	 * earlier version and the question is answered again, with `model` when given.
	 */
	async regenerate(seq: number, model?: ModelChoice): Promise<void> {
		const sessionId = this.#idle();
		const question = questionOf(this.messages, seq);
		if (model) await this.setModel(model.provider, model.model);
		await this.#compactions.yieldTo(sessionId);
		await this.#run(sessionId, regenerateTurn(sessionId, question, seq));
	}

	/** The versions at the place before row `index` of `shown`, when there is more than one. */
	versionBefore(index: number): VersionPoint | null {
		return versionsBefore(this.session, this.shown, index);
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
	 * Runs a turn (see runChatTurn): a failure before the user's message was stored is thrown.
	 * After a finished answer, with the lock released: prune, micro-compact or summarise when
	 * due, unless the next message was sent meanwhile (its turn needs the lock now).
	 */
	async #run(sessionId: string, turn: Turn, hasUserText = false): Promise<void> {
		const resumed = this.#resumed.delete(sessionId);
		const finishedIn = await runChatTurn(this, this.#services, this.#compactions, sessionId, turn, resumed, hasUserText);
		if (finishedIn && !this.running.has(finishedIn)) void this.#compactions.idle(finishedIn);
		if (finishedIn && hasUserText) void this.#askForTitle(finishedIn);
	}
}
