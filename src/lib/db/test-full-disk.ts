// A full disk for Node tests: while filled, every write to the database fails as Chromium fails
// it when the origin's quota is used up (a QuotaExceededError), and reads keep working.
import type Dexie from 'dexie';

export interface FullDisk {
	fill(): void;
	free(): void;
	readonly full: boolean;
}

/** Installs the fault on `db` (reopening it if it is open); the disk starts with room. */
export async function simulateFullDisk(db: Dexie): Promise<FullDisk> {
	let full = false;
	const wasOpen = db.isOpen();
	if (wasOpen) db.close({ disableAutoOpen: false });
	db.use({
		stack: 'dbcore',
		name: 'full-disk',
		create: (down) => ({
			...down,
			table: (name) => {
				const table = down.table(name);
				return {
					...table,
					mutate: (req) => (full ? Promise.reject(new DOMException('The quota has been exceeded.', 'QuotaExceededError')) : table.mutate(req))
				};
			}
		})
	});
	if (wasOpen) await db.open();
	return {
		fill: () => (full = true),
		free: () => (full = false),
		get full() {
			return full;
		}
	};
}
