import type { Agent, AgentReply, AgentRequest, KnowledgeRetriever } from '@svc/core/store-kit';
import { retrieverOf, type Knowledge } from '../knowledge.js';
import { generateText, stepCountIs, streamText } from 'ai';
import type { LanguageModel, ModelMessage, TextStreamPart, ToolSet } from 'ai';
import { abortable } from '../abort.js';
import { DeltaWriter, deltaSinkOf } from '../deltas.js';
import type { DeltaSink } from '../deltas.js';
import { conversationMessages } from './conversation.js';
import { LlmAgentError, toLlmAgentError } from './llm-agent-error.js';
import { buildSystemPrompt } from './system-prompt.js';
import { createTurnLog } from './turn-log.js';
import type { TurnLog } from './turn-log.js';
import { buildReply } from './turn-reply.js';
import type { TurnResult } from './turn-reply.js';
import { createTurnTools } from './turn-tools.js';

export interface LlmAgentOptions {
  /** An AI SDK model, e.g. `createOpenAI({ apiKey }).chat('gpt-4o-mini')`; see `createLlmAgentFromEnv`. */
  model: LanguageModel;
  /** What `search_knowledge` and `search_products` query: the service's retrieval, or a store (full text alone). */
  knowledge: Knowledge;
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
  knowledge: KnowledgeRetriever;
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
    knowledge: retrieverOf(options.knowledge),
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
 * The LLM agent (DESIGN.md section 6) on the Vercel AI SDK: one `generateText` run per turn (`streamText` when
 * the caller streams, forwarding the text to `onDelta` as the provider sends it), with the tools
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

/** What one turn hands the AI SDK, the same for `generateText` and `streamText`. */
function turnCall(request: AgentRequest, settings: Settings, log: TurnLog) {
  const lastStep = settings.maxSteps - 1;
  const tools: ToolSet = createTurnTools({ request, knowledge: settings.knowledge, searchLimit: settings.searchLimit, log });
  return {
    model: settings.model,
    system: buildSystemPrompt(request),
    messages: conversationMessages(request),
    tools,
    // A form shown, a handoff asked for or the conversation ended is the reply: another model call would only reword
    // it, at a price.
    // Read from the log, not from tool-call names, so a call with invalid input (rejected by the SDK and
    // returned to the model as an error) does not end the turn.
    stopWhen: [stepCountIs(settings.maxSteps), () => log.form !== null || log.ended || log.handoff],
    // The last allowed step may not call tools, so a turn that used every step still ends with an answer. The
    // tools stay declared: Anthropic refuses tool_use blocks in the history of a request without tools.
    prepareStep: ({ stepNumber }: { stepNumber: number }) => (stepNumber === lastStep ? { toolChoice: 'none' as const } : undefined),
    maxRetries: settings.maxRetries,
    abortSignal: request.signal,
    ...(settings.temperature === undefined ? {} : { temperature: settings.temperature }),
    ...(settings.maxOutputTokens === undefined ? {} : { maxOutputTokens: settings.maxOutputTokens }),
  };
}

function promptTexts(system: string, messages: readonly ModelMessage[]): string[] {
  return [system, ...messages.flatMap((message) => (typeof message.content === 'string' ? [message.content] : []))];
}

async function runTurn(request: AgentRequest, settings: Settings): Promise<AgentReply> {
  const sink = deltaSinkOf(request);
  if (sink !== undefined) return streamTurn(request, settings, sink);
  const log = createTurnLog();
  const call = turnCall(request, settings, log);
  const result = await generateText(call);
  return buildReply({
    language: request.language,
    model: settings.label,
    log,
    result: {
      text: result.text,
      steps: result.steps.length,
      usage: { inputTokens: result.totalUsage.inputTokens, outputTokens: result.totalUsage.outputTokens },
      prompt: promptTexts(call.system, call.messages),
    },
  });
}

/**
 * The streaming turn: `streamText` with the same tools, steps and stop rules, each text delta forwarded as the
 * provider sends it. The visitor has read every step's text by the end, so the reply's content is all of it
 * (steps joined by a blank line), not only the last step's as in a non-streaming turn. A provider failure
 * before the first byte is retried like `generateText`'s; one in the middle of the stream rejects the turn.
 */
async function streamTurn(request: AgentRequest, settings: Settings, sink: DeltaSink): Promise<AgentReply> {
  const log = createTurnLog();
  const call = turnCall(request, settings, log);
  const writer = new DeltaWriter(sink);
  // Errors arrive as stream parts below; the SDK's default onError would also print them to the console.
  const result = streamText({ ...call, onError: () => undefined });
  // The SDK cancels the request on abort, but a stalled body may never yield again: stop waiting at once.
  const { steps, usage } = await abortable(forwardText(result.fullStream, writer, { model: settings.label, signal: request.signal }), request.signal);
  const reply = buildReply({
    language: request.language,
    model: settings.label,
    log,
    result: { text: writer.text, steps, usage, prompt: promptTexts(call.system, call.messages) },
  });
  // A turn that was only a tool call gets a stand-in sentence, which the stream has not carried yet.
  if (writer.text === '') writer.writeWhole(reply.content);
  return reply;
}

interface StreamTotals {
  steps: number;
  usage: TurnResult['usage'];
}

/** Reads the SDK's stream to its end: text to the writer, step and usage counts out, error parts thrown. */
async function forwardText(
  stream: AsyncIterable<TextStreamPart<ToolSet>>,
  writer: DeltaWriter,
  context: { model: string; signal: AbortSignal },
): Promise<StreamTotals> {
  const totals: StreamTotals = { steps: 0, usage: { inputTokens: undefined, outputTokens: undefined } };
  for await (const part of stream) {
    // Once the turn is abandoned nothing more reaches the caller, whatever the stream still yields.
    context.signal.throwIfAborted();
    switch (part.type) {
      case 'text-delta':
        writer.write(part.text);
        break;
      case 'finish-step':
        totals.steps += 1;
        writer.endStep();
        break;
      case 'finish':
        totals.usage = { inputTokens: part.totalUsage.inputTokens, outputTokens: part.totalUsage.outputTokens };
        break;
      case 'error':
        throw streamFailure(part.error, context.model);
      case 'abort':
        throw new Error('the model stream was aborted');
      default:
        break;
    }
  }
  return totals;
}

/**
 * An error part of the stream. Providers that fail after the stream opened write an error object into it
 * (OpenAI `{ message, type }`, Anthropic `{ type: "overloaded_error", message }`): not an `Error`, so it is
 * named here with the provider's own words; SDK errors (a dropped connection, a malformed chunk) pass through.
 */
function streamFailure(error: unknown, model: string): unknown {
  if (error instanceof Error) return error;
  const fields = typeof error === 'object' && error !== null ? (error as { message?: unknown; type?: unknown }) : {};
  const message = typeof fields.message === 'string' ? fields.message : JSON.stringify(error);
  const kind = typeof fields.type === 'string' ? ` (${fields.type})` : '';
  return new LlmAgentError('provider_error', `${model}: the stream failed: ${message}${kind}`, { cause: error });
}
