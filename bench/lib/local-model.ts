// The in-browser model's speed in Chromium, through the app's own engine handle and provider:
// the model is copied into the Origin Private File System, loaded with a given number of
// threads, and asked the same question several times. Returns plain figures.
import { describeLocalModel } from '../../src/lib/providers/local-model/describe-model';
import { openLocalEngine, unloadLocalEngine } from '../../src/lib/providers/local-model/local-engines';
import { createLocalModelProvider } from '../../src/lib/providers/local-model/local-model-provider';
import { copyModelFiles, removeModelFiles } from '../../src/lib/providers/local-model/model-files';
import { blobSource, readGgufMetadata } from '../../src/lib/providers/local-model/read-gguf-metadata';
import type { ProviderConfig } from '../../src/lib/providers/types';
import { median } from './timing';

export interface LocalModelRun {
	threads: number;
	multiThread: boolean;
	loadMs: number;
	/** Median over the runs: from the request to the first text on the main thread. */
	firstTokenMs: number;
	/** Median over the runs: answer tokens over the time from the first text to the end. */
	streamedPerSecond: number;
	/** Median over the runs: the speed the model itself measured (its decode loop only). */
	modelPerSecond: number;
	tokens: number;
}

export async function measureLocalModel(modelUrl: string, threads: number, runs: number, maxTokens: number): Promise<LocalModelRun> {
	const blob = await (await fetch(modelUrl)).blob();
	const file = new File([blob], 'bench.gguf');
	const id = `bench-${threads}-${crypto.randomUUID()}`;
	await copyModelFiles(id, [file], () => {});
	const local = describeLocalModel(await readGgufMetadata(blobSource(file)), [file]);
	const config: ProviderConfig = { id, preset: 'wllama', label: 'bench', base_url: '', api_key: '', model: 'bench.gguf', local };
	try {
		const engine = await openLocalEngine(config, { threads });
		const provider = createLocalModelProvider(config, async () => engine);
		const first: number[] = [];
		const streamed: number[] = [];
		const model: number[] = [];
		let tokens = 0;
		for (let run = 0; run < runs; run++) {
			const started = performance.now();
			let firstAt = 0;
			for await (const event of provider.stream({ model: config.model, messages: [{ role: 'user', content: `Tell me about rivers, take ${run + 1}.` }], max_tokens: maxTokens })) {
				if (event.type === 'text' && !firstAt) firstAt = performance.now();
				if (event.type === 'usage') tokens = event.usage.output_tokens;
				if (event.type === 'speed') model.push(event.tokens_per_second);
			}
			first.push(firstAt - started);
			streamed.push(((tokens - 1) * 1000) / (performance.now() - firstAt));
		}
		return { threads: engine.info.threads, multiThread: engine.info.multiThread, loadMs: engine.info.loadMs, firstTokenMs: median(first), streamedPerSecond: median(streamed), modelPerSecond: median(model), tokens };
	} finally {
		unloadLocalEngine(id);
		await removeModelFiles(id);
	}
}
