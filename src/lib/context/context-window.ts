// Context windows of well-known models, for the context meter. Pure.

/** The context window of well-known models, for the context meter. */
export function contextWindowFor(model: string): number {
	const name = model.toLowerCase();
	if (name.startsWith('offline')) return 32_000;
	if (/claude/.test(name)) return 200_000;
	if (/gpt-4\.1|gemini/.test(name)) return 1_000_000;
	if (/gpt-5/.test(name)) return 400_000;
	if (/gpt-4-|gpt-4$/.test(name)) return 8_192;
	if (/gpt-3\.5/.test(name)) return 16_385;
	return 128_000;
}
