// A provider saved here takes over the sessions whose own provider is not set up here but was at
// the same server (they came from another device, or their provider was removed): each goes on
// with its own model through the new provider.
import { listSessionsWithoutProvider } from '../../db/sessions-without-provider';
import { setSessionModel } from '../../sessions/edit-session';
import { sameServer } from '../../sync/provider-ref';
import { OFFLINE_PROVIDER_ID, type Services } from '../app/services';

/** Moves those sessions to provider `providerId`; returns their ids. */
export async function adoptProvider(services: Services, providerId: string): Promise<string[]> {
	const providers = services.settings.get('providers');
	const config = providers.find((provider) => provider.id === providerId);
	if (!config || !config.base_url) return [];
	const configured = new Set([OFFLINE_PROVIDER_ID, ...providers.map((provider) => provider.id)]);
	const sessions = (await listSessionsWithoutProvider(services.db, configured)).filter((session) => {
		const named = session.named_provider;
		return named?.id === session.provider && !!named.base_url && sameServer(named.base_url, config.base_url);
	});
	for (const session of sessions) await setSessionModel(services.sessionContext(), session.id, config.id, session.model, services.namedProvider(config.id));
	return sessions.map((session) => session.id);
}
