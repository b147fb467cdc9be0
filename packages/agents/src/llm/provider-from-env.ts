import { createAnthropic } from '@ai-sdk/anthropic';
import { createOpenAI } from '@ai-sdk/openai';
import { createOpenAICompatible } from '@ai-sdk/openai-compatible';
import type { Agent } from '@svc/core/store-kit';
import type { LanguageModel } from 'ai';
import { readHttpUrl, readVariable as read } from '../env.js';
import type { AiEnv } from '../env.js';
import { createLlmAgent } from './llm-agent.js';
import type { LlmAgentOptions } from './llm-agent.js';

export const AI_PROVIDERS = ['openai', 'anthropic', 'openai-compatible'] as const;
export type AiProvider = (typeof AI_PROVIDERS)[number];

/** The LLM settings read from the environment (`SVC_AI_*`). */
export interface AiConfig {
  provider: AiProvider;
  model: string;
  apiKey: string | undefined;
  /** The API root, e.g. `https://api.openai.com/v1`, `http://localhost:11434/v1`. */
  baseURL: string;
}

export type { AiEnv };

/**
 * Provider roots, passed explicitly: left unset, the AI SDK providers would read `OPENAI_BASE_URL` or
 * `ANTHROPIC_BASE_URL` from `process.env` behind the configuration's back.
 */
const DEFAULT_BASE_URLS: Readonly<Record<Exclude<AiProvider, 'openai-compatible'>, string>> = {
  openai: 'https://api.openai.com/v1',
  anthropic: 'https://api.anthropic.com/v1',
};

/** The vendor's own variable, accepted as a fallback so an existing setup works unchanged. */
const VENDOR_KEY_VARIABLES: Readonly<Record<Exclude<AiProvider, 'openai-compatible'>, string>> = {
  openai: 'OPENAI_API_KEY',
  anthropic: 'ANTHROPIC_API_KEY',
};

function isAiProvider(value: string): value is AiProvider {
  return (AI_PROVIDERS as readonly string[]).includes(value);
}

/**
 * Reads and checks the `SVC_AI_*` variables. Null when `SVC_AI_PROVIDER` is unset (the server then uses the
 * local agent); otherwise a complete configuration, or an Error naming the variable to fix.
 *
 * @example
 * readAiConfig({ SVC_AI_PROVIDER: 'openai-compatible', SVC_AI_BASE_URL: 'http://localhost:11434/v1', SVC_AI_MODEL: 'llama3.1' })
 */
export function readAiConfig(env: AiEnv): AiConfig | null {
  const provider = read(env, 'SVC_AI_PROVIDER');
  if (provider === undefined) return null;
  if (!isAiProvider(provider)) {
    throw new Error(`SVC_AI_PROVIDER must be one of ${AI_PROVIDERS.join(', ')}; got ${JSON.stringify(provider)}.`);
  }
  const model = read(env, 'SVC_AI_MODEL');
  if (model === undefined) {
    throw new Error(`SVC_AI_MODEL is required with SVC_AI_PROVIDER=${provider} (e.g. ${exampleModel(provider)}).`);
  }
  const baseURL = readBaseURL(env, provider);
  if (provider === 'openai-compatible') {
    // No fallback to OPENAI_API_KEY here: that key must never be sent to a third-party server.
    return { provider, model, apiKey: read(env, 'SVC_AI_API_KEY'), baseURL };
  }
  const vendorVariable = VENDOR_KEY_VARIABLES[provider];
  const apiKey = read(env, 'SVC_AI_API_KEY') ?? read(env, vendorVariable);
  if (apiKey === undefined) {
    throw new Error(`SVC_AI_API_KEY (or ${vendorVariable}) is required with SVC_AI_PROVIDER=${provider}.`);
  }
  return { provider, model, apiKey, baseURL };
}

function readBaseURL(env: AiEnv, provider: AiProvider): string {
  const value = read(env, 'SVC_AI_BASE_URL');
  if (value === undefined) {
    if (provider === 'openai-compatible') {
      throw new Error('SVC_AI_BASE_URL is required with SVC_AI_PROVIDER=openai-compatible (e.g. http://localhost:11434/v1 for Ollama).');
    }
    return DEFAULT_BASE_URLS[provider];
  }
  return readHttpUrl({ name: 'SVC_AI_BASE_URL', value, example: 'http://localhost:11434/v1' });
}

function exampleModel(provider: AiProvider): string {
  return provider === 'openai' ? 'gpt-4o-mini' : provider === 'anthropic' ? 'claude-sonnet-4-5' : 'llama3.1';
}

/**
 * The AI SDK model for a configuration. OpenAI goes through Chat Completions (`/chat/completions`), not the
 * provider's default Responses API: it is the wire format OpenAI-compatible servers share, and the Responses
 * API keeps conversations on OpenAI's side by default (`store: true`), which a self-hosted service should not
 * opt visitors into silently.
 */
export function createModel(config: AiConfig): LanguageModel {
  switch (config.provider) {
    case 'openai':
      return createOpenAI({ apiKey: config.apiKey, baseURL: config.baseURL }).chat(config.model);
    case 'anthropic':
      return createAnthropic({ apiKey: config.apiKey, baseURL: config.baseURL })(config.model);
    case 'openai-compatible':
      return createOpenAICompatible({
        name: 'openai-compatible',
        baseURL: config.baseURL,
        ...(config.apiKey === undefined ? {} : { apiKey: config.apiKey }),
      }).chatModel(config.model);
  }
}

export type LlmAgentFromEnvOptions = Omit<LlmAgentOptions, 'model'>;

/**
 * The LLM agent the environment asks for, or null when `SVC_AI_PROVIDER` is unset. Throws an Error naming the
 * variable when the configuration is incomplete or invalid: a server should refuse to start rather than
 * silently fall back to the local agent.
 *
 * @example
 * const agent = createLlmAgentFromEnv(process.env, { knowledge: store }) ?? createLocalAgent({ knowledge: store });
 */
export function createLlmAgentFromEnv(env: AiEnv, options: LlmAgentFromEnvOptions): Agent | null {
  const config = readAiConfig(env);
  return config === null ? null : createLlmAgent({ ...options, model: createModel(config) });
}
