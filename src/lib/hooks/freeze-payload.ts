// Gives each plugin its own frozen copy of a payload, so no plugin can change app state or
// what the next plugin sees (DESIGN §4), and nothing non-cloneable crosses the boundary (§7).
import type { DeepReadonly } from './hook-map';

/** A structured clone, frozen all the way down. Throws DataCloneError on functions etc. */
export function freezeClone<T>(value: T): DeepReadonly<T> {
	return deepFreeze(structuredClone(value)) as DeepReadonly<T>;
}

export function deepFreeze<T>(value: T): T {
	// Typed arrays with elements cannot be frozen (freeze throws); they hold only numbers.
	if (value === null || typeof value !== 'object' || ArrayBuffer.isView(value)) return value;
	if (Object.isFrozen(value)) return value;
	Object.freeze(value);
	if (value instanceof Map) {
		// Object.freeze leaves Map/Set contents writable; their entries are still frozen below.
		for (const [key, item] of value) {
			deepFreeze(key);
			deepFreeze(item);
		}
	} else if (value instanceof Set) {
		for (const item of value) deepFreeze(item);
	} else {
		for (const key of Reflect.ownKeys(value)) deepFreeze((value as Record<PropertyKey, unknown>)[key]);
	}
	return value;
}
