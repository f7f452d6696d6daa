// Adding an in-browser model in Settings: the picked GGUF file (or every shard of a split one)
// is checked (its header read), copied into the Origin Private File System with progress, and
// loaded once to prove it runs; only then is the provider saved. Cancel or a failure leaves
// nothing behind.
import { describeLocalModel, modelName, orderShards } from '../../providers/local-model/describe-model';
import { fetchLocalEngine, openLocalEngine, unloadLocalEngine } from '../../providers/local-model/local-engines';
import { copyModelFiles, modelFilesSize, removeModelFiles, storageLeft } from '../../providers/local-model/model-files';
import { blobSource, readGgufMetadata } from '../../providers/local-model/read-gguf-metadata';
import { PRESETS } from '../../providers/presets';
import { raceAbort } from '../../providers/abort';
import type { ProviderConfig } from '../../providers/types';
import { formatBytes } from '../../hooks/plain-data';
import type { SettingsState } from '../settings/settings.svelte';

export { formatBytes };

export type LocalModelPhase = 'idle' | 'reading' | 'engine' | 'copying' | 'loading';

export interface LocalModelResult {
	ok: boolean;
	text: string;
}

export class LocalModelForm {
	files = $state<File[]>([]);
	phase = $state<LocalModelPhase>('idle');
	copied = $state(0);
	total = $state(0);
	#controller: AbortController | null = null;
	#settings: SettingsState;

	constructor(settings: SettingsState) {
		this.#settings = settings;
	}

	get busy(): boolean {
		return this.phase !== 'idle';
	}

	cancel(): void {
		this.#controller?.abort();
	}

	/** Checks, copies, loads and saves the picked model; says what happened. */
	async add(): Promise<LocalModelResult> {
		const ordered = orderShards(this.files);
		if (typeof ordered === 'string') return { ok: false, text: ordered };
		const controller = (this.#controller = new AbortController());
		const id = crypto.randomUUID();
		try {
			this.phase = 'reading';
			const meta = await readGgufMetadata(blobSource(ordered[0]));
			const total = ordered.reduce((sum, file) => sum + file.size, 0);
			const left = await storageLeft();
			if (left !== null && left < total) {
				return { ok: false, text: `Not enough storage: the model needs ${formatBytes(total)} and this browser allows this site ${formatBytes(left)} more.` };
			}
			this.phase = 'engine';
			await fetchLocalEngine(controller.signal);
			this.phase = 'copying';
			this.total = total;
			this.copied = 0;
			await copyModelFiles(id, ordered, (copied) => (this.copied = copied), controller.signal);
			const config: ProviderConfig = {
				id,
				preset: 'wllama',
				label: PRESETS.wllama.label,
				base_url: '',
				api_key: '',
				model: modelName(ordered[0].name),
				local: describeLocalModel(meta, ordered)
			};
			this.phase = 'loading';
			const engine = await raceAbort(openLocalEngine(config), controller.signal);
			if (!(await this.#settings.set('providers', [...this.#settings.get('providers'), config]))) throw new Error('the settings could not be saved');
			const template = config.local!.template === 'model' ? 'its own chat template' : 'no chat template of its own, so a plain User/Assistant transcript is used';
			return {
				ok: true,
				text: `Saved ${config.model}: ${formatBytes(total)}, ${config.local!.context_window.toLocaleString('en')} tokens of context, ${template}. Loaded in ${(engine.info.loadMs / 1000).toFixed(1)} s on ${engine.info.threads} thread${engine.info.threads === 1 ? '' : 's'}.`
			};
		} catch (error) {
			unloadLocalEngine(id);
			await removeModelFiles(id).catch(() => {});
			if (controller.signal.aborted) return { ok: false, text: 'Cancelled: nothing was kept.' };
			return { ok: false, text: `Could not add the model: ${error instanceof Error ? error.message : String(error)}` };
		} finally {
			this.phase = 'idle';
			this.#controller = null;
		}
	}
}

/** Removing an in-browser model's provider also stops its worker and frees its files. */
export async function removeLocalModel(id: string): Promise<void> {
	unloadLocalEngine(id);
	await removeModelFiles(id);
}

/** What the provider row shows: the bytes its files take now, and what this site may still store. */
export async function localModelSpace(id: string): Promise<{ bytes: number; left: number | null }> {
	const [bytes, left] = await Promise.all([modelFilesSize(id), storageLeft()]);
	return { bytes, left };
}
