// Hands a file to the browser's downloads, as a link with `download` would.
export function downloadFile(blob: Blob, filename: string): void {
	const url = URL.createObjectURL(blob);
	const link = document.createElement('a');
	link.href = url;
	link.download = filename;
	link.hidden = true;
	document.body.append(link);
	link.click();
	link.remove();
	// The download reads the URL after this task; a minute is plenty for it to start.
	setTimeout(() => URL.revokeObjectURL(url), 60_000);
}
