// The root store: opens the active profile at start-up, repairs answers a closed tab left
// streaming, and builds the stores the UI reads.
import { openProfileDb, type PalimpsestDb } from '../db/database';
import { markInterruptedMessages } from '../db/message-verbs';
import { loadActiveProfile, MetaDb, type ProfileRow } from '../db/meta-db';
import { HookBus } from '../hooks/hook-bus';
import { ChatState, TURN_LOCK_PREFIX } from './chat.svelte';
import { createServices, type Services } from './services';
import { SessionsState } from './sessions.svelte';
import { SettingsState } from './settings.svelte';

export class AppState {
	status = $state<'loading' | 'ready' | 'failed'>('loading');
	error = $state('');
	services!: Services;
	settings!: SettingsState;
	sessions!: SessionsState;
	chat!: ChatState;
	#stops: Array<() => void> = [];

	async start(): Promise<void> {
		try {
			const profile = await loadActiveProfile(new MetaDb());
			const db = openProfileDb(profile.name);
			await db.open();
			await markInterruptedMessages(db, await sessionsStreamingElsewhere());
			this.#build(db, profile);
			this.status = 'ready';
		} catch (error) {
			this.error = describeStartupError(error);
			this.status = 'failed';
		}
	}

	#build(db: PalimpsestDb, profile: ProfileRow): void {
		this.settings = new SettingsState(db);
		const hooks = new HookBus({
			timeoutSeconds: () => Number(this.settings.get('plugins.hook_callback_timeout'))
		});
		this.services = createServices({ db, profile, hooks, settings: this.settings });
		this.sessions = new SessionsState(db);
		this.chat = new ChatState(this.services);
		this.#stops.push(this.settings.start(), this.sessions.start(), () => this.chat.close());
	}

	stop(): void {
		for (const stop of this.#stops.splice(0)) stop();
	}
}

async function sessionsStreamingElsewhere(): Promise<Set<string>> {
	if (typeof navigator === 'undefined' || !navigator.locks) return new Set();
	const { held = [] } = await navigator.locks.query();
	return new Set(
		held
			.map((lock) => lock.name ?? '')
			.filter((name) => name.startsWith(TURN_LOCK_PREFIX))
			.map((name) => name.slice(TURN_LOCK_PREFIX.length))
	);
}

function describeStartupError(error: unknown): string {
	const message = error instanceof Error ? error.message : String(error);
	if (/QuotaExceeded|quota/i.test(message)) {
		return 'The browser refused to store data (storage quota exceeded). Free some space and reload.';
	}
	if (/InvalidState|not allowed|SecurityError/i.test(message)) {
		return 'This browser does not allow local storage here (private mode or blocked site data), so Palimpsest cannot keep your sessions.';
	}
	return `Palimpsest could not open its local database: ${message}`;
}

export const app = new AppState();
