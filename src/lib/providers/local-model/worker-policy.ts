// The Trusted Types default policy of the in-browser model's worker. The page's policy requires
// a Trusted Type for every script URL, and this worker inherits that requirement; the only
// script URLs made here are wllama's own: its engine worker, started from a blob: URL it creates
// in this worker from code in its package. Nothing else runs in this worker.

interface WorkerScope {
	trustedTypes?: { defaultPolicy?: unknown; createPolicy(name: string, rules: { createScriptURL(input: string): string }): unknown };
	location: { origin: string };
}

export function installWorkerPolicy(scope: WorkerScope = globalThis as never): void {
	const factory = scope.trustedTypes;
	if (!factory || factory.defaultPolicy) return;
	const own = `blob:${scope.location.origin}/`;
	factory.createPolicy('default', {
		createScriptURL(input) {
			if (input.startsWith(own)) return input;
			throw new TypeError(`Trusted Types: the model worker starts only its engine's workers, not ${input.slice(0, 100)}.`);
		}
	});
}
