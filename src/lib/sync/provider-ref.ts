// Which provider a session used, as another device can find it: its kind (preset), the server's
// address and the name it was given, never its key or this device's id for it. Devices match
// providers by server and model (then kind), so a session continued elsewhere keeps its model
// where that device has a provider for the same server.
import { record, text, type Parse } from '../sessions/import-schema';

export interface ProviderRef {
	preset: string;
	/** The server's address as configured ('' for a provider that runs in the browser). */
	base_url: string;
	name: string;
}

export const PROVIDER_REF: Parse<ProviderRef> = record<ProviderRef>(
	{ required: { preset: text(60, { nonEmpty: true }), base_url: text(2_000), name: text(200) }, optional: {} },
	'a provider (an object)'
);

/** The address as compared: no trailing slashes, lower-case scheme and host. */
export function sameServer(a: string, b: string): boolean {
	return normalise(a) === normalise(b);
}

function normalise(url: string): string {
	const trimmed = url.trim().replace(/\/+$/, '');
	try {
		const parsed = new URL(trimmed);
		return `${parsed.protocol}//${parsed.host}${parsed.pathname.replace(/\/+$/, '')}`.toLowerCase();
	} catch {
		return trimmed.toLowerCase();
	}
}

/**
 * The provider of this device that stands for `ref` when the session uses `model`: one at the
 * same server (of the same kind, for one that runs in the browser), preferring one whose own
 * model is `model`, then one of the same kind; the first one listed among equals.
 */
export function matchProvider<P extends { id: string; preset: string; base_url: string; model?: string }>(ref: ProviderRef, providers: readonly P[], model?: string): P | undefined {
	const here = providers.filter((provider) => sameServer(provider.base_url, ref.base_url) && (ref.base_url !== '' || provider.preset === ref.preset));
	const score = (provider: P) => (model !== undefined && provider.model === model ? 2 : 0) + (provider.preset === ref.preset ? 1 : 0);
	return here.reduce<P | undefined>((best, provider) => (best === undefined || score(provider) > score(best) ? provider : best), undefined);
}
