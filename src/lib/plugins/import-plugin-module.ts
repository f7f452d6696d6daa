// Turns checked plugin source into a module. The source is imported as fetched (not by URL
// again), so the code that runs is the code that was hashed and cached.
export type ModuleImporter = (source: string, url: string) => Promise<Record<string, unknown>>;

export const importFromBlob: ModuleImporter = async (source, url) => {
	const blob = new Blob([`${source}\n//# sourceURL=${url}\n`], { type: 'text/javascript' });
	const objectUrl = URL.createObjectURL(blob);
	try {
		return await import(/* @vite-ignore */ objectUrl);
	} finally {
		URL.revokeObjectURL(objectUrl);
	}
};

/** For Node, which cannot import blob: URLs. */
export const importFromDataUrl: ModuleImporter = (source) =>
	import(/* @vite-ignore */ `data:text/javascript;base64,${btoa(unescape(encodeURIComponent(source)))}`);

export function defaultImporter(): ModuleImporter {
	return typeof window === 'undefined' ? importFromDataUrl : importFromBlob;
}
