// The in-browser model's GGUF files in the Origin Private File System: one folder per
// configured provider, so a reload finds them again and Remove frees exactly their space.
// Copying streams the picked file to disk (no copy of it in memory) and reports progress.

const ROOT = 'local-models';

async function folder(providerId: string, create: boolean): Promise<FileSystemDirectoryHandle> {
	const root = await navigator.storage.getDirectory();
	const models = await root.getDirectoryHandle(ROOT, { create });
	return models.getDirectoryHandle(providerId, { create });
}

/** Copies `files` (already in shard order) into the provider's folder; `onProgress(copied, total)` in bytes. */
export async function copyModelFiles(
	providerId: string,
	files: readonly File[],
	onProgress: (copied: number, total: number) => void,
	signal?: AbortSignal
): Promise<void> {
	const total = files.reduce((sum, file) => sum + file.size, 0);
	const dir = await folder(providerId, true);
	let copied = 0;
	try {
		for (const file of files) {
			const writable = await (await dir.getFileHandle(file.name, { create: true })).createWritable();
			const counting = new TransformStream<Uint8Array, Uint8Array>({
				transform(chunk, controller) {
					copied += chunk.byteLength;
					onProgress(copied, total);
					controller.enqueue(chunk);
				}
			});
			// pipeTo closes the file when the copy ends and aborts it (nothing half-written kept) on failure.
			await file.stream().pipeThrough(counting).pipeTo(writable, { signal });
		}
	} catch (error) {
		await removeModelFiles(providerId);
		throw error;
	}
}

/** The provider's files, in the order given; an error names a file that is missing. */
export async function openModelFiles(providerId: string, names: readonly string[]): Promise<File[]> {
	let dir: FileSystemDirectoryHandle;
	try {
		dir = await folder(providerId, false);
	} catch {
		throw new Error('The model file is no longer in this browser\u2019s storage (it may have been cleared). Remove this provider and add the model again.');
	}
	return Promise.all(
		names.map(async (name) => {
			try {
				return await (await dir.getFileHandle(name)).getFile();
			} catch {
				throw new Error(`The model file ${name} is no longer in this browser\u2019s storage. Remove this provider and add the model again.`);
			}
		})
	);
}

/** Bytes the provider's files take on disk now (0 when they are gone). */
export async function modelFilesSize(providerId: string): Promise<number> {
	try {
		const dir = await folder(providerId, false);
		let bytes = 0;
		for await (const handle of dir.values()) if (handle.kind === 'file') bytes += (await (handle as FileSystemFileHandle).getFile()).size;
		return bytes;
	} catch {
		return 0;
	}
}

/** Deletes the provider's folder and everything in it; nothing to delete is not an error. */
export async function removeModelFiles(providerId: string): Promise<void> {
	try {
		const root = await navigator.storage.getDirectory();
		const models = await root.getDirectoryHandle(ROOT);
		await models.removeEntry(providerId, { recursive: true });
	} catch (error) {
		if (!(error instanceof DOMException && error.name === 'NotFoundError')) throw error;
	}
}

/** What this site may still store, in bytes, as the browser estimates it (null where it cannot say). */
export async function storageLeft(): Promise<number | null> {
	const estimate = await navigator.storage?.estimate?.().catch(() => null);
	if (!estimate?.quota) return null;
	return Math.max(0, estimate.quota - (estimate.usage ?? 0));
}
