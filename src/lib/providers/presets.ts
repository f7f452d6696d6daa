// Each provider preset as Settings describes it: kept apart from the adapters, so the forms and
// the model picker can show them without loading any adapter.
import type { ProviderPreset } from './types';

export interface PresetInfo {
	label: string;
	/** Base URL the adapter appends its paths to; '' means the user must supply one. */
	baseUrl: string;
	needsKey: boolean;
	/** A sensible first model; '' where the server serves whatever model it has loaded. */
	defaultModel: string;
}

export const PRESETS: Record<ProviderPreset, PresetInfo> = {
	offline: {
		label: 'Offline model (built-in)',
		baseUrl: '',
		needsKey: false,
		defaultModel: 'offline-mini'
	},
	// The Responses API: the provider's own compaction is available here.
	openai: {
		label: 'OpenAI',
		baseUrl: 'https://api.openai.com/v1',
		needsKey: true,
		defaultModel: 'gpt-4.1-mini'
	},
	openai_chat: {
		label: 'OpenAI (Chat Completions)',
		baseUrl: 'https://api.openai.com/v1',
		needsKey: true,
		defaultModel: 'gpt-4.1-mini'
	},
	openrouter: {
		label: 'OpenRouter',
		baseUrl: 'https://openrouter.ai/api/v1',
		needsKey: true,
		defaultModel: 'openai/gpt-4.1-mini'
	},
	ollama: {
		label: 'Ollama',
		baseUrl: 'http://localhost:11434/v1',
		needsKey: false,
		defaultModel: 'llama3.2'
	},
	lmstudio: {
		label: 'LM Studio',
		baseUrl: 'http://localhost:1234/v1',
		needsKey: false,
		defaultModel: ''
	},
	llamacpp: {
		label: 'llama.cpp server',
		baseUrl: 'http://localhost:8080/v1',
		needsKey: false,
		defaultModel: ''
	},
	vllm: { label: 'vLLM', baseUrl: 'http://localhost:8000/v1', needsKey: false, defaultModel: '' },
	anthropic: {
		label: 'Anthropic',
		baseUrl: 'https://api.anthropic.com',
		needsKey: true,
		defaultModel: 'claude-sonnet-4-5'
	},
	custom: {
		label: 'Custom (OpenAI-compatible)',
		baseUrl: '',
		needsKey: false,
		defaultModel: ''
	},
	// A GGUF file the user picks, run in this tab (no server, no key); see local-model/.
	wllama: {
		label: 'In-browser model (llama.cpp)',
		baseUrl: '',
		needsKey: false,
		defaultModel: ''
	}
};
