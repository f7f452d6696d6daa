// A session whose provider is not set up in this browser (removed in Settings, or the session
// came from another browser or device): what it is called, where it was and what is said about
// it, by the name the user gave the provider and its server, never by its internal id.
import type { SessionRow } from '../db/schema';
import type { ProviderPreset } from '../providers/types';
import { PRESETS } from '../providers/presets';

type SessionModel = Pick<SessionRow, 'provider' | 'model' | 'named_provider'>;

/** The provider's name as last seen with this session, or null when it is not known here. */
export function providerNameOf(session: SessionModel): string | null {
	const named = session.named_provider;
	const name = named?.id === session.provider ? named.name.trim() : '';
	return name || null;
}

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

/** Why a message cannot go to the session until another model is chosen. */
export function missingProviderError(session: SessionModel): string {
	const name = providerNameOf(session);
	const server = providerServerOf(session);
	const what = name ? `${session.model} from ${name} is` : `The provider of ${session.model} is`;
	return `${what} not set up in this browser: ${server ? `add a provider for ${server}, or choose another model` : 'choose another model'} to go on.`;
}

/** How the Model menu shows the session's model while its provider is missing. */
export function missingModelLabel(session: SessionModel): string {
	const name = providerNameOf(session);
	return name ? `${session.model} · ${name} (not set up here)` : `${session.model} (provider not set up here)`;
}
