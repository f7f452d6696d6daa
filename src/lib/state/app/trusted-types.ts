// The page's Trusted Types default policy. The Content-Security-Policy requires Trusted Types
// for every script sink, so any string that would become HTML, a script URL or script code
// passes through here unless a library's own policy made it (Svelte's templates, SvelteKit's
// service worker, DOMPurify). This one lets through exactly what the app itself does: workers
// and scripts of this site; anything else throws. The app writes no HTML from a string.

interface PolicyFactory {
	createPolicy(name: string, rules: { createHTML?: (input: string) => string; createScriptURL?: (input: string) => string; createScript?: (input: string) => string }): unknown;
	defaultPolicy?: unknown;
}

/** Whether `url` (absolute or relative to the page) is a script file of this site (a blob: URL is not). */
export function isOwnScript(url: string, origin: string): boolean {
	try {
		const parsed = new URL(url, origin);
		return parsed.origin === origin && (parsed.protocol === 'https:' || parsed.protocol === 'http:');
	} catch {
		return false;
	}
}

export function installTrustedTypesPolicy(scope: { trustedTypes?: PolicyFactory; location: { origin: string } } = globalThis as never): void {
	const factory = scope.trustedTypes;
	if (!factory || factory.defaultPolicy) return;
	factory.createPolicy('default', {
		createHTML() {
			throw new TypeError('Trusted Types: the app writes no HTML from a string.');
		},
		createScriptURL(input) {
			if (isOwnScript(input, scope.location.origin)) return input;
			throw new TypeError(`Trusted Types: ${input.slice(0, 100)} is not a script of this site.`);
		},
		createScript() {
			throw new TypeError('Trusted Types: the app never runs script from a string.');
		}
	});
}
