// Finding a model server on this computer (Ollama, LM Studio) for "Connect a model", and
// saying exactly what to change when the browser cannot reach a provider. A server that runs
// but does not allow this page's origin still answers a request the page cannot read (an
// opaque "no-cors" response): that is how "blocked" is told apart from "not running".
import { PRESETS } from '../../providers/presets';
import type { ProviderPreset } from '../../providers/types';

export interface LocalServer {
	preset: Extract<ProviderPreset, 'ollama' | 'lmstudio'>;
	label: string;
	baseUrl: string;
}

/** Where each server listens unless told otherwise. */
export const LOCAL_SERVERS: LocalServer[] = (['ollama', 'lmstudio'] as const).map((preset) => ({
	preset,
	label: PRESETS[preset].label,
	baseUrl: PRESETS[preset].baseUrl
}));

export type Detection =
	| { server: LocalServer; state: 'ready'; models: string[] }
	| { server: LocalServer; state: 'blocked' }
	| { server: LocalServer; state: 'absent' };

const PROBE_MS = 2_000;

/** Asks a server for its models: ready (with their names), running but blocking this page, or absent. */
export async function detectServer(server: LocalServer, fetchImpl: typeof fetch = fetch): Promise<Detection> {
	const url = `${server.baseUrl}/models`;
	try {
		const response = await fetchImpl(url, { signal: AbortSignal.timeout(PROBE_MS), credentials: 'omit' });
		return { server, state: 'ready', models: response.ok ? readModels(await response.json().catch(() => null)) : [] };
	} catch {
		try {
			await fetchImpl(url, { mode: 'no-cors', signal: AbortSignal.timeout(PROBE_MS), credentials: 'omit' });
			return { server, state: 'blocked' };
		} catch {
			return { server, state: 'absent' };
		}
	}
}

/** Model ids from an OpenAI-style list ({ data: [{ id }] }), at most 200, never anything else. */
function readModels(body: unknown): string[] {
	const data = (body as { data?: unknown } | null)?.data;
	if (!Array.isArray(data)) return [];
	return data
		.map((item) => (item as { id?: unknown })?.id)
		.filter((id): id is string => typeof id === 'string' && id.length > 0 && id.length <= 200)
		.slice(0, 200);
}

/** The one setting that lets `origin` use a server of this preset, in words. */
export function originSetting(preset: ProviderPreset | undefined, origin: string): string {
	switch (preset) {
		case 'ollama':
			return `start Ollama with the environment variable OLLAMA_ORIGINS=${origin} (for example OLLAMA_ORIGINS=${origin} ollama serve)`;
		case 'lmstudio':
			return 'turn on "Enable CORS" in LM Studio\'s server settings (Developer tab), or start it with lms server start --cors';
		case 'vllm':
			return `start vLLM with --allowed-origins '["${origin}"]'`;
		case 'llamacpp':
			return 'make sure llama-server is reachable from this browser (it allows other origins by default)';
		default:
			return `its server must allow this origin (answer with Access-Control-Allow-Origin: ${origin})`;
	}
}

/** A browser's words for a request that got no answer at all (no server, or one it may not read). */
const UNREACHABLE = /failed to fetch|networkerror when attempting to fetch|load failed|network ?error/i;

/**
 * What to check when a provider could not be reached, or null when `error` says something else.
 * `provider` is the configured provider the request went to. The browser gives the same bare
 * error for a network or server that is down and for a server that refuses this page (CORS):
 * the first is the more common, so it comes first, then the setting that lets this page in.
 */
export function explainUnreachable(error: string, provider: { label: string; name?: string; base_url: string; preset: ProviderPreset } | undefined, origin: string): string | null {
	if (!UNREACHABLE.test(error)) return null;
	const where = provider ? `${provider.name?.trim() || provider.label} at ${provider.base_url}` : 'the provider';
	return (
		`The browser could not reach ${where}: the network or the server may be down. Check that the server is running and that this device is online. ` +
		`If it is running, it may not allow requests from this page (${origin}): ${originSetting(provider?.preset, origin)}.`
	);
}
