// The chat template for a GGUF model: its own (from `tokenizer.chat_template`), or, for a
// model that has none, a plain "User: / Assistant:" transcript. llama.cpp would otherwise pick
// ChatML on its own, whose control tokens a model without a template usually does not know.

/** Jinja, as llama.cpp's chat template engine reads it. Tool results read as plain text. */
export const PLAIN_TEMPLATE = [
	'{% for message in messages %}',
	"{% if message['role'] == 'system' %}{{ message['content'] }}\n\n",
	"{% elif message['role'] == 'user' %}User: {{ message['content'] }}\n\n",
	"{% elif message['role'] == 'assistant' %}Assistant: {{ message['content'] }}\n\n",
	"{% else %}Tool result: {{ message['content'] }}\n\n",
	'{% endif %}{% endfor %}',
	'{% if add_generation_prompt %}Assistant:{% endif %}'
].join('');

/** Where the plain transcript's next turn starts: generation stops there. */
export const PLAIN_STOP = ['\nUser:', '\n\nUser:'];

/** What loading a model needs: the template to force (none: the model's own) and extra stops. */
export function templateFor(kind: 'model' | 'fallback'): { chatTemplate?: string; stop: string[] } {
	return kind === 'fallback' ? { chatTemplate: PLAIN_TEMPLATE, stop: PLAIN_STOP } : { stop: [] };
}
