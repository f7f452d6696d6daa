// When a tool server's tool asks before it runs, and which answers the question offers.
// "Always allow" covers the arguments the model chose: a call whose arguments a plugin's
// pre_tool_call changed asks every time (both shown), offers only Allow once and Deny, and
// never adds to Always allow. Pure.

export type Approval = 'once' | 'always' | 'deny';

/** A call whose arguments plugins changed: what the model chose, and who changed them. */
export interface ArgsRewrite {
	/** The arguments the model chose. */
	modelArgs: Record<string, unknown>;
	/** The plugins that changed them, by name, in the order they ran. */
	plugins: string[];
}

const EVERY_ANSWER: readonly Approval[] = ['once', 'always', 'deny'];
const ONCE_OR_DENY: readonly Approval[] = ['once', 'deny'];

/** The answers to offer before the call runs, or null when it runs without asking. */
export function approvalChoices(alwaysAllowed: boolean, rewrite: ArgsRewrite | undefined): readonly Approval[] | null {
	if (rewrite) return ONCE_OR_DENY;
	return alwaysAllowed ? null : EVERY_ANSWER;
}

/** Whether an answer is kept as "Always allow" for the tool: never for arguments a plugin changed. */
export function keepsAlways(answer: Approval, rewrite: ArgsRewrite | undefined): boolean {
	return answer === 'always' && rewrite === undefined;
}
