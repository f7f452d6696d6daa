import { describe, expectTypeOf, it } from 'vitest';
import { HookBus } from '../hooks/hook-bus';
import type { LifecycleNotifier } from './session-context';

declare const hooks: LifecycleNotifier;
const ids = { session_id: 's', session_key: 'web:default:s', platform: 'web' } as const;

describe('the session layer’s hook calls', () => {
	it('is served by the hook bus', () => {
		expectTypeOf<HookBus>().toExtend<LifecycleNotifier>();
	});

	it('accepts each lifecycle hook with its own payload', () => {
		void hooks.notify('on_session_start', { ...ids, profile: 'default', model: 'm' });
		void hooks.notify('on_session_end', { ...ids, end_reason: 'new_session' });
		void hooks.notify('on_session_finalize', ids);
		void hooks.notify('on_session_reset', { session_id: 's2', old_session_id: 's', session_key: ids.session_key });
	});

	it('rejects a misspelled hook name or payload field', () => {
		// @ts-expect-error: no such hook
		void hooks.notify('on_session_started', { ...ids, profile: 'default', model: 'm' });
		// @ts-expect-error: a misspelled field
		void hooks.notify('on_session_end', { ...ids, endReason: 'new_session' });
		// @ts-expect-error: a missing field
		void hooks.notify('on_session_start', ids);
		// @ts-expect-error: a field of another hook's payload
		void hooks.notify('on_session_finalize', { ...ids, old_session_id: 's0' });
		// @ts-expect-error: collectors are not observers
		void hooks.notify('pre_llm_call', {});
	});
});
