// Whether two session documents say the same thing, whatever order their keys came in: a pulled
// document equal to this device's leaves nothing to send.
import { CLOCKED_FIELDS, type SessionDoc } from './session-document';

export function sameSession(a: SessionDoc, b: SessionDoc): boolean {
	return (
		a.session_id === b.session_id &&
		a.created_at === b.created_at &&
		a.last_activity_at === b.last_activity_at &&
		a.deleted_at === b.deleted_at &&
		CLOCKED_FIELDS.every((field) => a.clocks[field] === b.clocks[field] && JSON.stringify(a.fields[field]) === JSON.stringify(b.fields[field]))
	);
}
