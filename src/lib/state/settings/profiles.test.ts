import 'fake-indexeddb/auto';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openProfileDb, profileDbName } from '../../db/database';
import { loadActiveProfile, MetaDb, type ProfileRow } from '../../db/meta-db';
import { createProfile, readActiveProfileId } from '../../db/profile-verbs';
import { withWorkLock } from '../../sessions/work-lock';
import { ProfilesState, type ProfileHost } from './profiles.svelte';

const exists = async (name: string) => (await indexedDB.databases()).some((d) => d.name === name);

let meta: MetaDb;
let work: ProfileRow;
let calls: string[];
let answering: boolean;
const host: ProfileHost = {
	working: () => answering,
	leave: () => calls.push('leave'),
	reload: () => calls.push('reload')
};

beforeEach(async () => {
	await new MetaDb().delete();
	meta = new MetaDb();
	await loadActiveProfile(meta);
	work = await createProfile(meta, 'Work');
	calls = [];
	answering = false;
});
afterEach(async () => {
	meta.close();
	await openProfileDb('work').delete();
});

describe('ProfilesState', () => {
	it('switching writes the active profile and reloads; while this tab answers it is refused and changes nothing', async () => {
		const profiles = new ProfilesState(meta, (await meta.profiles.get('default'))!, host);
		answering = true;
		await expect(profiles.switchTo('work')).rejects.toThrow(/Wait for the answer to finish/);
		expect(await readActiveProfileId(meta)).toBe('default');
		expect(calls).toEqual([]);
		answering = false;
		await profiles.switchTo('work');
		expect(await readActiveProfileId(meta)).toBe('work');
		expect(calls).toEqual(['reload']);
	});

	it('a profile with a session at work in some tab is not deleted', async () => {
		const db = openProfileDb('work');
		await db.sessions.add({ id: 's1' } as never);
		const profiles = new ProfilesState(meta, (await meta.profiles.get('default'))!, host);
		let release!: () => void;
		const turn = withWorkLock('work', 's1', { kind: 'turn' }, () => new Promise<void>((resolve) => (release = resolve)));
		await expect(profiles.remove('work')).rejects.toThrow(/busy in some tab/);
		expect(await meta.profiles.get('work')).toBeDefined();
		expect(await db.sessions.count()).toBe(1);
		expect(await exists(profileDbName('work'))).toBe(true);
		release();
		await turn;
		db.close();
		await profiles.remove('work');
		expect(await meta.profiles.get('work')).toBeUndefined();
		expect(await exists(profileDbName('work'))).toBe(false);
		expect(calls).toEqual([]);
	});

	it('deleting this tab’s own profile stops the app first, then reloads into the default profile', async () => {
		const profiles = new ProfilesState(meta, work, host);
		await meta.meta.put({ key: 'active_profile', value: 'work' });
		await profiles.remove('work');
		expect(calls).toEqual(['leave', 'reload']);
		expect(await readActiveProfileId(meta)).toBe('default');
		expect(await exists(profileDbName('work'))).toBe(false);
	});
});
