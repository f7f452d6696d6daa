// The models the Model picker offers: each configured provider's own list (`GET {base}/models`,
// asked once per provider while the app runs, and only once the picker shows that provider or
// the user opens it), with the model typed in Settings always there, so a provider that cannot
// list its models still offers the one the user named.
import { SvelteMap } from 'svelte/reactivity';
import type { ProviderConfig } from '../../providers/types';
import { modelLabel } from '../../providers/provider-name';
import type { ModelChoice, ModelOption, Services } from '../app/services';

const LIST_TIMEOUT_MS = 15_000;
/** A provider that lists thousands of models (OpenRouter) offers the first of them, sorted. */
const MAX_LISTED = 200;

export class ModelListState {
	/** Listed models by provider id. */
	#listed = new SvelteMap<string, string[]>();
	/** Providers already asked, by id and base URL (not shown, so not reactive). */
	// eslint-disable-next-line svelte/prefer-svelte-reactivity
	#asked = new Set<string>();
	#services: Services;

	constructor(services: Services) {
		this.#services = services;
	}

	/** Asks each configured provider not asked yet for its models; a failure just leaves its typed model. */
	load(providers: readonly ProviderConfig[]): void {
		for (const config of providers) {
			const key = `${config.id}\u0000${config.base_url}`;
			if (this.#asked.has(key)) continue;
			this.#asked.add(key);
			// The adapters load on first use, not with the page.
			import('../../providers/create-provider')
				.then(({ createProvider }) => createProvider(config).listModels?.(AbortSignal.timeout(LIST_TIMEOUT_MS)))
				.then((models) => models && this.#listed.set(config.id, models.filter((m, i) => models.indexOf(m) === i).sort().slice(0, MAX_LISTED)))
				.catch(() => {});
		}
	}

	/** Every model to offer, and `current` too when it is a model of a configured provider no list has. */
	options(current?: ModelChoice): ModelOption[] {
		const configured = this.#services.modelOptions();
		const options = [...configured];
		const add = (provider: string, model: string) => {
			const base = configured.find((option) => option.provider === provider);
			if (!base || !model || options.some((o) => o.provider === provider && o.model === model)) return;
			options.push({ ...base, model, label: modelLabel(model, base.providerLabel) });
		};
		for (const [provider, models] of this.#listed) for (const model of models) add(provider, model);
		if (current) add(current.provider, current.model);
		return options;
	}
}
