/**
 * The Anthropic Messages API with `stream: true` in its wire format
 * (https://docs.anthropic.com/en/api/messages-streaming): named events `message_start`, `content_block_start`,
 * `ping`, `content_block_delta` (`text_delta`, `input_json_delta`), `content_block_stop`, `message_delta`
 * (stop reason and output tokens), `message_stop`, and `error` when the API fails after the stream began.
 */

function event(name: string, data: Record<string, unknown>): string {
  return `event: ${name}\ndata: ${JSON.stringify({ type: name, ...data })}\n\n`;
}

export function anthropicStart(inputTokens: number): string {
  return event('message_start', {
    message: {
      id: 'msg_01HCDu5LRGeP2o7s2xGmxyAB',
      type: 'message',
      role: 'assistant',
      model: 'claude-sonnet-4-5-20250929',
      content: [],
      stop_reason: null,
      stop_sequence: null,
      usage: { input_tokens: inputTokens, cache_creation_input_tokens: 0, cache_read_input_tokens: 0, output_tokens: 1, service_tier: 'standard' },
    },
  });
}

export const ANTHROPIC_PING = event('ping', {});

export function anthropicTextBlock(index: number, pieces: readonly string[]): string[] {
  return [
    event('content_block_start', { index, content_block: { type: 'text', text: '' } }),
    ...pieces.map((text) => event('content_block_delta', { index, delta: { type: 'text_delta', text } })),
    event('content_block_stop', { index }),
  ];
}

export function anthropicToolUseBlock(index: number, call: { id: string; name: string; input: Record<string, unknown> }): string[] {
  const json = JSON.stringify(call.input);
  const half = Math.floor(json.length / 2);
  return [
    event('content_block_start', { index, content_block: { type: 'tool_use', id: call.id, name: call.name, input: {} } }),
    event('content_block_delta', { index, delta: { type: 'input_json_delta', partial_json: '' } }),
    event('content_block_delta', { index, delta: { type: 'input_json_delta', partial_json: json.slice(0, half) } }),
    event('content_block_delta', { index, delta: { type: 'input_json_delta', partial_json: json.slice(half) } }),
    event('content_block_stop', { index }),
  ];
}

export function anthropicStop(stopReason: 'end_turn' | 'tool_use' | 'max_tokens', outputTokens: number): string[] {
  return [
    event('message_delta', { delta: { stop_reason: stopReason, stop_sequence: null }, usage: { output_tokens: outputTokens } }),
    event('message_stop', {}),
  ];
}

/** The `error` event Anthropic sends when it fails mid-stream, e.g. `overloaded_error`. */
export function anthropicStreamError(type: string, message: string): string {
  return event('error', { error: { type, message } });
}
