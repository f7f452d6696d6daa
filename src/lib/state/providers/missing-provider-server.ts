// A session whose provider is not set up in this browser: the server that provider was at, and
// what "Add provider" fills the provider form with. Loaded with that session's notice only, not
// with the page.
import type { SessionRow } from '../../db/schema';
import { PRESETS } from '../../providers/presets';
import type { ProviderPreset } from '../../providers/types';

type SessionModel = Pick<SessionRow, 'provider' | 'model' | 'named_provider'>;

/** The server the session's provider was at (an http or https address), or null when it is not known here. */
export function providerServerOf(session: SessionModel): string | null {
	const named = session.named_provider;
	const server = named?.id === session.provider ? (named.base_url ?? '').trim() : '';
	try {
		return ['http:', 'https:'].includes(new URL(server).protocol) ? server : null;
	} catch {
		return null;
	}
}

/** What the provider form starts with to add a provider like the missing one: its kind, server and the session's model. */
export function providerToAdd(session: SessionModel): { preset: ProviderPreset; base_url: string; model: string } | null {
	const server = providerServerOf(session);
	if (!server) return null;
	const preset = session.named_provider?.preset;
	const known = preset !== undefined && Object.hasOwn(PRESETS, preset) && preset !== 'offline' && preset !== 'wllama';
	return { preset: known ? (preset as ProviderPreset) : 'custom', base_url: server, model: session.model };
}
