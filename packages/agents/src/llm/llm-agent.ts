import type { Agent, AgentReply, AgentRequest, StoreOps } from '@svc/core';
import { generateText, stepCountIs } from 'ai';
import type { LanguageModel } from 'ai';
import { conversationMessages } from './conversation.js';
import { toLlmAgentError } from './llm-agent-error.js';
import { buildSystemPrompt } from './system-prompt.js';
import { createTurnLog } from './turn-log.js';
import { buildReply } from './turn-reply.js';
import { createTurnTools } from './turn-tools.js';

export interface LlmAgentOptions {
  /** An AI SDK model, e.g. `createOpenAI({ apiKey }).chat('gpt-4o-mini')`; see `createLlmAgentFromEnv`. */
  model: LanguageModel;
  /** What `search_knowledge` and `search_products` query: the store. */
  knowledge: Pick<StoreOps, 'searchKnowledge'>;
  /** Model calls per turn, tool round trips included. Default 5; at least 1. */
  maxSteps?: number;
  /** Retries of a failed provider call (429, 5xx, network), honouring Retry-After. Default 2, as the AI SDK's. */
  maxRetries?: number;
  /** Sampling temperature. Default: the provider's (reasoning models accept no other). */
  temperature?: number;
  /** Cap on tokens written per model call. Default: the provider's. */
  maxOutputTokens?: number;
  /** Passages or products per search. Default 5. */
  searchLimit?: number;
}

interface Settings {
  model: LanguageModel;
  label: string;
  knowledge: Pick<StoreOps, 'searchKnowledge'>;
  maxSteps: number;
  maxRetries: number;
  temperature: number | undefined;
  maxOutputTokens: number | undefined;
  searchLimit: number;
}

/** Defaults resolved in one place; `??` so that an explicit 0 (no retries) is honoured. */
function resolveSettings(options: LlmAgentOptions): Settings {
  const settings: Settings = {
    model: options.model,
    label: typeof options.model === 'string' ? options.model : `${options.model.provider}:${options.model.modelId}`,
    knowledge: options.knowledge,
    maxSteps: options.maxSteps ?? 5,
    maxRetries: options.maxRetries ?? 2,
    temperature: options.temperature,
    maxOutputTokens: options.maxOutputTokens,
    searchLimit: options.searchLimit ?? 5,
  };
  for (const name of ['maxSteps', 'searchLimit'] as const) {
    if (!Number.isInteger(settings[name]) || settings[name] < 1) throw new RangeError(`${name} must be an integer ≥ 1`);
  }
  if (!Number.isInteger(settings.maxRetries) || settings.maxRetries < 0) throw new RangeError('maxRetries must be an integer ≥ 0');
  return settings;
}

/**
 * The LLM agent (DESIGN.md section 6) on the Vercel AI SDK: one `generateText` run per turn, with the tools
 * `search_knowledge`, `search_products`, `show_form` (when the widget has forms) and `end_conversation`.
 * Products, the form and the session's end come from what the tools did; usage is the provider's, summed over
 * steps. Any failure (provider error after retries, malformed response, empty answer) rejects with an
 * `LlmAgentError`; an aborted request rejects with the signal's reason.
 *
 * @example
 * const agent = createLlmAgent({ model: createOpenAI({ apiKey }).chat('gpt-4o-mini'), knowledge: store });
 * const reply = await agent.reply(request); // reply.content: Markdown; reply.products: what search_products found
 */
export function createLlmAgent(options: LlmAgentOptions): Agent {
  const settings = resolveSettings(options);
  return {
    async reply(request) {
      request.signal.throwIfAborted();
      try {
        return await runTurn(request, settings);
      } catch (error) {
        // The engine expects its own abort reason (its timeout or the caller leaving), not the SDK's wrapping.
        if (request.signal.aborted) throw request.signal.reason;
        throw toLlmAgentError(error, settings.label);
      }
    },
  };
}

async function runTurn(request: AgentRequest, settings: Settings): Promise<AgentReply> {
  const log = createTurnLog();
  const system = buildSystemPrompt(request);
  const messages = conversationMessages(request);
  const lastStep = settings.maxSteps - 1;
  const result = await generateText({
    model: settings.model,
    system,
    messages,
    tools: createTurnTools({ request, knowledge: settings.knowledge, searchLimit: settings.searchLimit, log }),
    // A form shown or the conversation ended is the reply: another model call would only reword it, at a price.
    // Read from the log, not from tool-call names, so a call with invalid input (rejected by the SDK and
    // returned to the model as an error) does not end the turn.
    stopWhen: [stepCountIs(settings.maxSteps), () => log.form !== null || log.ended],
    // The last allowed step may not call tools, so a turn that used every step still ends with an answer. The
    // tools stay declared: Anthropic refuses tool_use blocks in the history of a request without tools.
    prepareStep: ({ stepNumber }) => (stepNumber === lastStep ? { toolChoice: 'none' } : undefined),
    maxRetries: settings.maxRetries,
    abortSignal: request.signal,
    ...(settings.temperature === undefined ? {} : { temperature: settings.temperature }),
    ...(settings.maxOutputTokens === undefined ? {} : { maxOutputTokens: settings.maxOutputTokens }),
  });
  return buildReply({
    language: request.language,
    model: settings.label,
    log,
    result: {
      text: result.text,
      steps: result.steps.length,
      usage: { inputTokens: result.totalUsage.inputTokens, outputTokens: result.totalUsage.outputTokens },
      prompt: [system, ...messages.flatMap((message) => (typeof message.content === 'string' ? [message.content] : []))],
    },
  });
}
