// A session whose provider is not set up in this browser (removed in Settings, or the session
// came from another browser): what it is called and what is said about it, by the name the
// user gave the provider and never by its internal id.
import type { SessionRow } from '../../db/schema';

type SessionModel = Pick<SessionRow, 'provider' | 'model' | 'named_provider'>;

/** The provider's name as last seen with this session, or null when it is not known here. */
export function providerNameOf(session: SessionModel): string | null {
	const named = session.named_provider;
	const name = named?.id === session.provider ? named.name.trim() : '';
	return name || null;
}

/** Why a message cannot go to the session until another model is chosen. */
export function missingProviderError(session: SessionModel): string {
	const name = providerNameOf(session);
	const what = name ? `${session.model} from ${name} is` : `The provider of ${session.model} is`;
	return `${what} not set up in this browser: choose another model to go on.`;
}

/** How the Model menu shows the session's model while its provider is missing. */
export function missingModelLabel(session: SessionModel): string {
	const name = providerNameOf(session);
	return name ? `${session.model} · ${name} (not set up here)` : `${session.model} (provider not set up here)`;
}
