// What a message row keeps of a tool's result beside what the model was sent: the tool server's
// parts and the arguments plugins made it run with.
import type { ImageRef, KeptPart } from '../../tool-servers/types';

/** A part of a tool server's result as a message row keeps it: an image by reference to its bytes (never text in the row). */
export type StoredResultPart = KeptPart;
export type { ImageRef };

/**
 * The arguments a tool ran with when plugins' `pre_tool_call` changed the ones the model chose
 * (those stay in the answer's `tool_calls`). The model is told too, in the result's `content`.
 */
export interface RanWith {
	/** As JSON. */
	arguments: string;
	/** The plugins that changed them, by the names they had then, in the order they ran. */
	changed_by: string[];
}

/** What the transcript shows of a tool server's result, read and bounded when it came. */
export interface StoredToolResult {
	/** The tool server's name, as it names itself. */
	server: string;
	is_error: boolean;
	parts: StoredResultPart[];
}
