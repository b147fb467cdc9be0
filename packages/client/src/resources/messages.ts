import { paginate } from '../paginate.js';
import { segment, sessionPath } from '../paths.js';
import type { Transport } from '../transport.js';
import type { ApiResponse, CallOptions, HistoryItem, ListQuery, MessageFeedbackBody, MessageFeedbackReply, PageResponse, PostOptions, SendMessageBody, TurnResponse } from '../types.js';

/** Message endpoints (spec 4.2, 4.7). */
export interface MessagesResource {
  /**
   * Sends a visitor message. Resolves to 200 with the reply, or 202 `{ messageId, status: 'processing' }` in
   * callback mode or when the AI is slower than the server's sync wait: check `status`.
   *
   * @example
   * const res = await client.messages.send('wgt_123', 'sess_abc', { content: 'Do you ship to Canada?' }, {
   *   idempotencyKey: crypto.randomUUID(),
   * });
   * if (res.status === 200) console.log(res.data.content, res.meta.creditsConsumed);
   * else console.log('reply pending under', res.data.messageId);
   */
  send(widgetId: string, sessionId: string, body: SendMessageBody, options?: PostOptions): Promise<TurnResponse>;
  /**
   * Reads one page of the history, oldest first.
   *
   * @example
   * const page = await client.messages.list('wgt_123', 'sess_abc', { limit: 20 });
   * const next = page.pagination.hasMore ? page.pagination.cursor : null;
   */
  list(widgetId: string, sessionId: string, query?: ListQuery, options?: CallOptions): Promise<PageResponse<HistoryItem>>;
  /**
   * Walks the whole history, oldest first, fetching pages as the loop needs them.
   *
   * @example
   * for await (const item of client.messages.iterate('wgt_123', 'sess_abc')) console.log(item.role, item.content);
   */
  iterate(widgetId: string, sessionId: string, query?: ListQuery, options?: CallOptions): AsyncGenerator<HistoryItem, void, undefined>;
  /**
   * Rates one AI reply thumbs up or down (DESIGN.md section 12); rating again replaces it. Free. A visitor message
   * or a person's reply is refused with 409 `message_not_rateable`.
   *
   * @example
   * const message = { widgetId: 'wgt_123', sessionId: 'sess_abc', messageId: 'msg_01J…' };
   * await client.messages.feedback(message, { rating: 'down', reason: 'incomplete', comment: 'No delivery date.' });
   */
  feedback(message: { widgetId: string; sessionId: string; messageId: string }, body: MessageFeedbackBody, options?: PostOptions): Promise<ApiResponse<MessageFeedbackReply>>;
}

export function createMessagesResource(transport: Transport): MessagesResource {
  const path = (widgetId: string, sessionId: string): string => `${sessionPath(widgetId, sessionId)}/messages`;
  const list: MessagesResource['list'] = (widgetId, sessionId, query = {}, options) => transport.get(path(widgetId, sessionId), options, query);
  return {
    send: (widgetId, sessionId, body, options) => transport.post(path(widgetId, sessionId), body, options),
    list,
    iterate: (widgetId, sessionId, query, options) => paginate((page) => list(widgetId, sessionId, page, options), query),
    feedback: (message, body, options) => transport.post(`${path(message.widgetId, message.sessionId)}/${segment('messageId', message.messageId)}/feedback`, body, options),
  };
}
