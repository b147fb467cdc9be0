import { paginate } from '../paginate.js';
import { sessionPath } from '../paths.js';
import type { Transport } from '../transport.js';
import type { CallOptions, HistoryItem, ListQuery, PageResponse, PostOptions, SendMessageBody, TurnResponse } from '../types.js';

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
}

export function createMessagesResource(transport: Transport): MessagesResource {
  const list: MessagesResource['list'] = (widgetId, sessionId, query = {}, options) =>
    transport.get(`${sessionPath(widgetId, sessionId)}/messages`, options, query);
  return {
    send: (widgetId, sessionId, body, options) => transport.post(`${sessionPath(widgetId, sessionId)}/messages`, body, options),
    list,
    iterate: (widgetId, sessionId, query, options) => paginate((page) => list(widgetId, sessionId, page, options), query),
  };
}
