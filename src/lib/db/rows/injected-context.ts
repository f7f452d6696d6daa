// The context a plugin's pre_llm_call added to the outgoing copy of a user message.

export interface InjectedContext {
	plugin_id: string;
	plugin_name: string;
	text: string;
	/** Set when the plugin's text was cut to its budget: how many characters it returned. */
	cut_from?: number;
}
