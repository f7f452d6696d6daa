import 'fake-indexeddb/auto';
import Dexie from 'dexie';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openProfileDb, profileDbName } from './database';
import { DEFAULT_PROFILE, loadActiveProfile, MetaDb } from './meta-db';
import { checkProfileName, profileIdFor, profileLabel } from './profile-id';
import {
	countProfileSessions,
	createProfile,
	deleteProfile,
	listProfiles,
	readActiveProfileId,
	renameProfile,
	setActiveProfile
} from './profile-verbs';
import { watchDeletion } from './watch-deletion';

let meta: MetaDb;
beforeEach(async () => {
	// The meta database has one fixed name: start every test from none.
	await Dexie.delete('palimpsest-meta');
	meta = new MetaDb();
	await loadActiveProfile(meta);
});
afterEach(async () => {
	for (const row of await meta.profiles.toArray()) await Dexie.delete(profileDbName(row.name));
	meta.close();
});

describe('profile ids', () => {
	it('come from the display name, are safe in database names and keys, and never collide', () => {
		expect(profileIdFor('Work stuff', [])).toBe('work-stuff');
		expect(profileIdFor('  Ça va: été!  ', [])).toBe('ca-va-ete');
		expect(profileIdFor('Work', ['work', 'work-2'])).toBe('work-3');
		expect(profileIdFor('日本語', [])).toBe('profile');
		expect(profileIdFor('x'.repeat(100), []).length).toBeLessThanOrEqual(32);
	});

	it('never name the meta database or the root profile', () => {
		expect(profileIdFor('Meta', [])).toBe('meta-2');
		expect(profileIdFor('META!', [])).not.toBe('meta');
		expect(profileIdFor('Default', [])).toBe('default-2');
	});

	it('display names are required and distinct, whatever their case', () => {
		const others = [{ name: 'default' }, { name: 'work', display_name: 'Work' }];
		expect(checkProfileName('  ', others)).toEqual({ error: 'A profile needs a name.' });
		expect(checkProfileName('WORK', others)).toMatchObject({ error: expect.stringContaining('already a profile named “Work”') });
		expect(checkProfileName('default', others)).toMatchObject({ error: expect.stringContaining('“Default”') });
		expect(checkProfileName('  Home   office ', others)).toEqual({ name: 'Home office' });
	});
});

describe('profile verbs', () => {
	it('create a profile with its own id and local user, listed after the root profile', async () => {
		const work = await createProfile(meta, 'Work', 10);
		const home = await createProfile(meta, 'Home', 20);
		expect(work).toMatchObject({ name: 'work', display_name: 'Work', user_name: 'You' });
		const root = await meta.profiles.get(DEFAULT_PROFILE);
		expect(new Set([root?.user_id, work.user_id, home.user_id]).size).toBe(3);
		expect((await listProfiles(meta)).map(profileLabel)).toEqual(['Default', 'Work', 'Home']);
		await expect(createProfile(meta, 'work')).rejects.toThrow(/already a profile/);
	});

	it('renaming keeps the id, so session keys and records in its database stay valid', async () => {
		const work = await createProfile(meta, 'Work');
		const db = openProfileDb(work.name);
		await db.sessions.add({ id: 's1', profile: 'work', session_key: 'web:work:s1' } as never);
		db.close();
		await renameProfile(meta, 'work', 'Office');
		expect(await meta.profiles.get('work')).toMatchObject({ name: 'work', display_name: 'Office', user_id: work.user_id });
		const again = openProfileDb('work');
		expect(await again.sessions.get('s1')).toMatchObject({ profile: 'work', session_key: 'web:work:s1' });
		again.close();
		await renameProfile(meta, DEFAULT_PROFILE, 'Personal');
		expect(profileLabel((await meta.profiles.get(DEFAULT_PROFILE))!)).toBe('Personal');
		await expect(renameProfile(meta, 'work', 'personal')).rejects.toThrow(/already a profile/);
	});

	it('the active profile survives a restart; one deleted elsewhere falls back to the root profile', async () => {
		await createProfile(meta, 'Work');
		await setActiveProfile(meta, 'work');
		expect((await loadActiveProfile(new MetaDb())).name).toBe('work');
		await meta.meta.put({ key: 'active_profile', value: 'gone' });
		expect((await loadActiveProfile(meta)).name).toBe(DEFAULT_PROFILE);
		expect(await meta.profiles.get('gone')).toBeUndefined();
		expect(await readActiveProfileId(meta)).toBe(DEFAULT_PROFILE);
		await expect(setActiveProfile(meta, 'gone')).rejects.toThrow(/no longer exists/);
	});

	it('counts sessions without creating a database that does not exist', async () => {
		await createProfile(meta, 'Empty');
		expect(await countProfileSessions('empty')).toBe(0);
		expect(await Dexie.exists(profileDbName('empty'))).toBe(false);
	});

	it('deleting removes the whole database and the row; the root profile cannot be deleted', async () => {
		await createProfile(meta, 'Work');
		await setActiveProfile(meta, 'work');
		const db = openProfileDb('work');
		await db.sessions.bulkAdd([{ id: 'a' }, { id: 'b' }] as never);
		await db.plugin_kv.add({ plugin_id: 'p', key: 'k', value: 1 });
		db.close();
		expect(await countProfileSessions('work')).toBe(2);
		await deleteProfile(meta, 'work');
		expect(await Dexie.exists(profileDbName('work'))).toBe(false);
		expect(await meta.profiles.get('work')).toBeUndefined();
		expect(await readActiveProfileId(meta)).toBe(DEFAULT_PROFILE);
		await expect(deleteProfile(meta, DEFAULT_PROFILE)).rejects.toThrow(/cannot be deleted/);
		expect(await meta.profiles.get(DEFAULT_PROFILE)).toBeDefined();
	});

	it('a tab that has the deleted profile open closes it for good instead of re-creating it', async () => {
		await createProfile(meta, 'Work');
		const open = openProfileDb('work');
		await open.open();
		let told = 0;
		watchDeletion(open, () => told++);
		await deleteProfile(meta, 'work');
		expect(told).toBe(1);
		await expect(open.sessions.count()).rejects.toThrow(/closed/i);
		expect(await Dexie.exists(profileDbName('work'))).toBe(false);
	});

	it('a connection nobody watches (a worker’s) does not re-create the deleted profile either', async () => {
		await createProfile(meta, 'Work');
		const worker = openProfileDb('work');
		await worker.sessions.count();
		await deleteProfile(meta, 'work');
		await expect(worker.sessions.count()).rejects.toThrow(/closed/i);
		expect(await Dexie.exists(profileDbName('work'))).toBe(false);
	});
});
