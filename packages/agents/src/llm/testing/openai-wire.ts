/**
 * OpenAI Chat Completions in its wire format (https://platform.openai.com/docs/api-reference/chat), as
 * api.openai.com answers it. OpenAI-compatible servers (Ollama, vLLM, llama.cpp) answer the same shape with
 * fewer fields, see {@link ollamaChatCompletion}.
 */

export interface OpenAIChatRequest {
  model: string;
  messages: Array<{
    role: 'system' | 'developer' | 'user' | 'assistant' | 'tool';
    content?: string | null;
    tool_calls?: Array<{ id: string; type: 'function'; function: { name: string; arguments: string } }>;
    tool_call_id?: string;
  }>;
  tools?: Array<{ type: 'function'; function: { name: string; description?: string; parameters: JsonSchemaObject } }>;
  tool_choice?: unknown;
  temperature?: number;
  max_tokens?: number;
  max_completion_tokens?: number;
  stream?: boolean;
}

export interface JsonSchemaObject {
  type: 'object';
  properties: Record<string, { type?: string; enum?: string[]; description?: string }>;
  required?: string[];
}

export interface ToolCallSpec {
  id: string;
  name: string;
  args: Record<string, unknown>;
}

const USAGE_DETAILS = {
  prompt_tokens_details: { cached_tokens: 0, audio_tokens: 0 },
  completion_tokens_details: { reasoning_tokens: 0, audio_tokens: 0, accepted_prediction_tokens: 0, rejected_prediction_tokens: 0 },
};

function completion(message: Record<string, unknown>, finishReason: string, usage: [number, number]) {
  return {
    id: 'chatcmpl-CZf3kPq8dV1sN2xYwL0aBcDeFgHiJ',
    object: 'chat.completion',
    created: 1_767_225_600,
    model: 'gpt-4o-mini-2024-07-18',
    choices: [{ index: 0, message: { role: 'assistant', refusal: null, annotations: [], ...message }, logprobs: null, finish_reason: finishReason }],
    usage: { prompt_tokens: usage[0], completion_tokens: usage[1], total_tokens: usage[0] + usage[1], ...USAGE_DETAILS },
    service_tier: 'default',
    system_fingerprint: 'fp_560af6e559',
  };
}

/** A final answer: `finish_reason: "stop"`. */
export function chatText(content: string, usage: [number, number] = [812, 54]) {
  return completion({ content }, 'stop', usage);
}

/** A step that calls tools: `content: null`, `finish_reason: "tool_calls"`, arguments as a JSON string. */
export function chatToolCalls(calls: readonly ToolCallSpec[], usage: [number, number] = [790, 21]) {
  return completion(
    {
      content: null,
      tool_calls: calls.map((call) => ({ id: call.id, type: 'function', function: { name: call.name, arguments: JSON.stringify(call.args) } })),
    },
    'tool_calls',
    usage,
  );
}

/** OpenAI's error body, e.g. for a 429 `rate_limit_exceeded` or a 500 `server_error`. */
export function openAIError(message: string, type: string, code: string | null) {
  return { error: { message, type, param: null, code } };
}

/** Ollama's `/v1/chat/completions`: the same shape, no refusal, annotations or token details. */
export function ollamaChatCompletion(message: { content: string; tool_calls?: ToolCallSpec[] }, usage: [number, number]) {
  const toolCalls = message.tool_calls?.map((call, index) => ({
    id: call.id,
    index,
    type: 'function',
    function: { name: call.name, arguments: JSON.stringify(call.args) },
  }));
  return {
    id: 'chatcmpl-412',
    object: 'chat.completion',
    created: 1_767_225_600,
    model: 'llama3.1',
    system_fingerprint: 'fp_ollama',
    choices: [
      {
        index: 0,
        message: { role: 'assistant', content: message.content, ...(toolCalls === undefined ? {} : { tool_calls: toolCalls }) },
        finish_reason: toolCalls === undefined ? 'stop' : 'tool_calls',
      },
    ],
    usage: { prompt_tokens: usage[0], completion_tokens: usage[1], total_tokens: usage[0] + usage[1] },
  };
}
