/**
 * The Anthropic Messages API in its wire format (https://docs.anthropic.com/en/api/messages): content blocks
 * (`text`, `tool_use`), `stop_reason`, `usage.input_tokens` / `output_tokens`.
 */

export type AnthropicBlock =
  | { type: 'text'; text: string; cache_control?: unknown }
  | { type: 'tool_use'; id: string; name: string; input: Record<string, unknown> }
  | { type: 'tool_result'; tool_use_id: string; content: string | Array<{ type: 'text'; text: string }>; is_error?: boolean };

export interface AnthropicRequest {
  model: string;
  max_tokens: number;
  system?: Array<{ type: 'text'; text: string }>;
  messages: Array<{ role: 'user' | 'assistant'; content: AnthropicBlock[] }>;
  tools?: Array<{ name: string; description?: string; input_schema: { type: 'object'; properties: Record<string, unknown>; required?: string[] } }>;
  tool_choice?: { type: string };
  temperature?: number;
}

export function anthropicMessage(
  content: ReadonlyArray<Extract<AnthropicBlock, { type: 'text' | 'tool_use' }>>,
  stopReason: 'end_turn' | 'tool_use' | 'max_tokens',
  usage: [number, number],
) {
  return {
    id: 'msg_01XFDUDYJgAACzvnptvVoYEL',
    type: 'message',
    role: 'assistant',
    model: 'claude-sonnet-4-5-20250929',
    content,
    stop_reason: stopReason,
    stop_sequence: null,
    usage: {
      input_tokens: usage[0],
      cache_creation_input_tokens: 0,
      cache_read_input_tokens: 0,
      output_tokens: usage[1],
      service_tier: 'standard',
    },
  };
}

/** Anthropic's error body: `rate_limit_error` (429), `overloaded_error` (529), `api_error` (500)… */
export function anthropicError(type: string, message: string) {
  return { type: 'error', error: { type, message }, request_id: 'req_011CSHoEeqs5C35K2UUqR7Fy' };
}
