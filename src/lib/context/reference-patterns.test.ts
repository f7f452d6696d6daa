import { describe, expect, it } from 'vitest';
import { extractFacts, type FactSource } from './extract-facts';

const identifiers = (content: string, role: FactSource['role'] = 'assistant') =>
	extractFacts([{ seq: 1, role, content }])
		.filter((fact) => fact.class === 'identifier')
		.map((fact) => fact.text);

describe('extractFacts takes code whole', () => {
	it('takes a command with its flags, from the start of its line or from a word only code has', () => {
		expect(identifiers('Run fastlane match appstore --readonly\nerror: expired', 'tool')).toEqual(['fastlane match appstore --readonly']);
		expect(identifiers('Copy the schema with pg_dump --schema-only first.')).toEqual(['pg_dump --schema-only']);
		expect(identifiers('Run it with --dry-run on staging.')).toEqual(['--dry-run']);
	});

	it("takes a package manager's command whole, wherever it is written, up to a word that is no part of it", () => {
		expect(identifiers('The callback needs a recent version: pip install --upgrade lightgbm. Then npm i -D vitest and yarn add zod before you go.')).toEqual([
			'pip install --upgrade lightgbm',
			'npm i -D vitest',
			'yarn add zod'
		]);
	});

	it('takes a call whose arguments hold calls, a call with a quoted word whole, and a PascalCase member after a name', () => {
		expect(identifiers('It calls store.OrdersAfter(r.Context(), cursor, limit) with r.URL.Query().Get("after") and r.URL.Query().Set(limit).', 'tool')).toEqual([
			'Get("after")',
			'Set(limit)',
			'store.OrdersAfter()',
			'r.Context()',
			'r.URL.Query()'
		]);
		expect(identifiers('Use store.OrdersAfter instead and answer with http.StatusNotFound. It works.Then stop.')).toEqual(['store.OrdersAfter', 'http.StatusNotFound']);
	});

	it('takes a statement of SQL by its keywords, with the name it acts on', () => {
		expect(identifiers('Then run ALTER EXTENSION postgis UPDATE and build it with CREATE INDEX CONCURRENTLY so writes go on.')).toEqual([
			'ALTER EXTENSION postgis UPDATE',
			'CREATE INDEX CONCURRENTLY'
		]);
	});

	it('takes a call with one name for its argument whole', () => {
		expect(identifiers('Store it under sessionKey(user.id) and call quit() at the end.')).toEqual(['sessionKey(user.id)', 'quit()']);
	});

	it('takes two-part names in dots written as code, and a name with its version run into it', () => {
		expect(identifiers('Set rds.logical_replication to 1, fit with smf.ols and compare with colbertv2.0, e.g. on a test.')).toEqual([
			'colbertv2.0',
			'rds.logical_replication',
			'smf.ols'
		]);
	});

	it('takes every name of a list of names written as code, the plain ones too', () => {
		expect(identifiers('columns: resp_id, age, income_band, carer, wellbeing_score', 'tool')).toEqual(['resp_id', 'age', 'income_band', 'carer', 'wellbeing_score']);
		expect(identifiers('columns: resp_id, age, carer, region', 'tool')).toEqual(['resp_id']);
		expect(identifiers('Sort by (created_at, id) and keep apples, pears, plums')).toEqual(['created_at', 'id']);
	});
});
