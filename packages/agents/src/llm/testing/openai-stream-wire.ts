import type { ToolCallSpec } from './openai-wire.js';

/**
 * Chat Completions with `stream: true` in its wire format
 * (https://platform.openai.com/docs/api-reference/chat-streaming): `data: <chat.completion.chunk>` lines, the
 * role in the first delta, `finish_reason` in the last choice chunk, then (with `stream_options.include_usage`,
 * which the AI SDK sends) a chunk with no choices and the usage, then `data: [DONE]`. OpenAI-compatible
 * servers (Ollama, vLLM) send the same lines with fewer fields.
 */

const ID = 'chatcmpl-CZg7RkV2dQ0pN8yXwL3aBcDeFgHiK';

function chunk(choice: Record<string, unknown> | null, extra: Record<string, unknown> = {}): string {
  const body = {
    id: ID,
    object: 'chat.completion.chunk',
    created: 1_767_225_600,
    model: 'gpt-4o-mini-2024-07-18',
    service_tier: 'default',
    system_fingerprint: 'fp_560af6e559',
    choices: choice === null ? [] : [{ index: 0, logprobs: null, finish_reason: null, ...choice }],
    ...extra,
  };
  return `data: ${JSON.stringify(body)}\n\n`;
}

function usageChunk(usage: [number, number]): string {
  return chunk(null, {
    usage: {
      prompt_tokens: usage[0],
      completion_tokens: usage[1],
      total_tokens: usage[0] + usage[1],
      prompt_tokens_details: { cached_tokens: 0, audio_tokens: 0 },
      completion_tokens_details: { reasoning_tokens: 0, audio_tokens: 0, accepted_prediction_tokens: 0, rejected_prediction_tokens: 0 },
    },
  });
}

export const OPENAI_DONE = 'data: [DONE]\n\n';

/** The opening chunk: the assistant role and empty content. */
export function openAIStart(): string {
  return chunk({ delta: { role: 'assistant', content: '', refusal: null } });
}

/** One piece of content. */
export function openAIDelta(text: string): string {
  return chunk({ delta: { content: text } });
}

/** The closing chunks of a step: `finish_reason`, the usage, `[DONE]`. */
export function openAIFinish(finishReason: 'stop' | 'tool_calls' | 'length', usage: [number, number]): string[] {
  return [chunk({ delta: {}, finish_reason: finishReason }), usageChunk(usage), OPENAI_DONE];
}

/** A whole streamed answer, one chunk per piece. */
export function openAITextStream(pieces: readonly string[], usage: [number, number] = [812, 54]): string[] {
  return [openAIStart(), ...pieces.map(openAIDelta), ...openAIFinish('stop', usage)];
}

/** A streamed step that calls tools: the id and name first, the arguments in two pieces, as OpenAI splits them. */
export function openAIToolCallStream(calls: readonly ToolCallSpec[], usage: [number, number] = [790, 21]): string[] {
  const lines = [chunk({ delta: { role: 'assistant', content: null } })];
  for (const [index, call] of calls.entries()) {
    const args = JSON.stringify(call.args);
    const half = Math.floor(args.length / 2);
    lines.push(chunk({ delta: { tool_calls: [{ index, id: call.id, type: 'function', function: { name: call.name, arguments: '' } }] } }));
    lines.push(chunk({ delta: { tool_calls: [{ index, function: { arguments: args.slice(0, half) } }] } }));
    lines.push(chunk({ delta: { tool_calls: [{ index, function: { arguments: args.slice(half) } }] } }));
  }
  return [...lines, ...openAIFinish('tool_calls', usage)];
}

/** An error OpenAI writes into an already-open stream (e.g. `server_error` when a model replica fails). */
export function openAIStreamError(message: string, type: string): string {
  return `data: ${JSON.stringify({ error: { message, type, param: null, code: null } })}\n\n`;
}
