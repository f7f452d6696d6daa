// What the session layer needs: the profile database and somewhere to announce lifecycle
// events after they commit (the hook bus, or nothing in tests).
import type { PalimpsestDb } from '../db/database';
import type { HookPayload, ObserverHookName } from '../hooks/hook-map';

/** Observer dispatch: queued in order, so the session layer never waits on plugins. */
export interface LifecycleNotifier {
	notify<N extends ObserverHookName>(name: N, payload: HookPayload<N>): Promise<void>;
}

export interface SessionContext {
	db: PalimpsestDb;
	hooks?: LifecycleNotifier;
	profile: string;
	platform: string;
	now?: () => number;
}

export function nowOf(ctx: SessionContext): number {
	return ctx.now?.() ?? Date.now();
}

export function threadKey(ctx: SessionContext, id: string): string {
	return `${ctx.platform}:${ctx.profile}:${id}`;
}
