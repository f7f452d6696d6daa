// The page's default Trusted Types policy lets through exactly what the app writes itself.
import { describe, expect, it } from 'vitest';
import { installTrustedTypesPolicy } from './trusted-types';

type Rules = { createHTML: (s: string) => string; createScriptURL: (s: string) => string; createScript: (s: string) => string };

function install(): Rules {
	let rules: Rules | undefined;
	installTrustedTypesPolicy({
		trustedTypes: { createPolicy: (name, made) => (name === 'default' ? (rules = made as Rules) : undefined) },
		location: { origin: 'https://app.example' }
	});
	if (!rules) throw new Error('no default policy was made');
	return rules;
}

describe('the default Trusted Types policy', () => {
	it('allows scripts of this site, and no HTML or anything else', () => {
		const rules = install();
		expect(() => rules.createHTML('<!doctype html><script>parent.postMessage(1, "*")</script>')).toThrow(TypeError);
		expect(() => rules.createHTML('<img src=x onerror=alert(1)>')).toThrow(TypeError);
		expect(rules.createScriptURL('/_app/immutable/workers/context.worker.js')).toBe('/_app/immutable/workers/context.worker.js');
		expect(rules.createScriptURL('https://app.example/service-worker.js')).toBe('https://app.example/service-worker.js');
		expect(() => rules.createScriptURL('https://evil.example/x.js')).toThrow(TypeError);
		expect(() => rules.createScriptURL('data:text/javascript,alert(1)')).toThrow(TypeError);
		expect(() => rules.createScriptURL('blob:https://app.example/123')).toThrow(TypeError);
		expect(() => rules.createScript('alert(1)')).toThrow(TypeError);
	});
});
