/**
 * The Vercel AI SDK's UI message stream protocol (v1, `x-vercel-ai-ui-message-stream: v1`): server-sent events
 * whose data is one JSON chunk each, ended by `[DONE]`. The chunk shapes (`UiMessageChunk`) and the closing line
 * are @svc/core/schemas'; a type test (stream-protocol.test.ts) holds them to the SDK's own `UIMessageChunk`,
 * whose client validates chunks strictly.
 */
import type { PageResult } from '@svc/core';
import type { HistoryItem, UiMessage, UiMessageChunk } from '@svc/core/schemas';
import type { AcceptedTurn, TurnFeedEvent } from './turn-feed.js';
import { errorBody } from './respond.js';

type StreamEvent = TurnFeedEvent | { type: 'start'; turn: Pick<AcceptedTurn, 'messageId' | 'sessionId'> };

/**
 * Translates one turn's events into chunks: the reply is one text part (opened at the start so deltas can
 * follow at once), the documents the answer used as `source-url` or `source-document` parts, products, forms and the
 * suggested actions as `data-products`, `data-forms` and `data-actions` parts, and the credits, the
 * session's end and the reply as stored (its content in the key's reply format) as the finish metadata.
 *
 * @example
 * const chunks = uiMessageChunks();
 * chunks({ type: 'start', turn: { messageId: 'msg_1', sessionId: 'sess_1' } }); // start, text-start
 */
export function uiMessageChunks(): (event: StreamEvent) => UiMessageChunk[] {
  let textId = 'text';
  return (event) => {
    switch (event.type) {
      case 'start':
        textId = `${event.turn.messageId}-text`;
        return [
          { type: 'start', messageId: event.turn.messageId, messageMetadata: { sessionId: event.turn.sessionId } },
          { type: 'text-start', id: textId },
        ];
      case 'delta':
        return [{ type: 'text-delta', id: textId, delta: event.text }];
      case 'completed': {
        const { data } = event;
        const chunks: UiMessageChunk[] = [{ type: 'text-end', id: textId }];
        for (const source of data.sources) {
          chunks.push(
            source.url === null
              ? { type: 'source-document', sourceId: source.documentId, mediaType: 'text/markdown', title: source.title }
              : { type: 'source-url', sourceId: source.documentId, url: source.url, title: source.title },
          );
        }
        if (data.products.length > 0) chunks.push({ type: 'data-products', data: data.products });
        if (data.actions.length > 0) chunks.push({ type: 'data-actions', data: data.actions });
        if (data.forms !== undefined && data.forms.length > 0) chunks.push({ type: 'data-forms', data: data.forms });
        chunks.push({
          type: 'finish',
          finishReason: 'stop',
          messageMetadata: {
            creditsConsumed: event.creditsConsumed,
            credits: data.credits,
            usage: data.usage,
            sessionEnded: data.sessionEnded,
          },
        });
        return chunks;
      }
      case 'handoff':
        // No AI reply: an empty text part, and the metadata says a person has the conversation.
        return [
          { type: 'text-end', id: textId },
          { type: 'finish', finishReason: 'stop', messageMetadata: { creditsConsumed: 0, handoff: true } },
        ];
      case 'failed': {
        const { error } = errorBody(event.error).body;
        return [{ type: 'error', errorText: `${error.code}: ${error.message}` }];
      }
    }
  };
}

/**
 * A page of the history as the AI SDK's UI messages (GET /widgets/{widgetId}/chat/{chatId}/messages): what `useChat`
 * shows on load, in the same parts the stream writes.
 */
export function uiMessagesPage(page: PageResult<HistoryItem>): PageResult<UiMessage> {
  return {
    ...page,
    data: page.data.map((item): UiMessage => ({
      id: item.messageId,
      role: item.role,
      parts: [{ type: 'text', text: item.content }, ...(item.products && item.products.length > 0 ? [{ type: 'data-products' as const, data: item.products }] : [])],
      metadata: { createdAt: item.createdAt, ...(item.author ? { author: item.author } : {}) },
    })),
  };
}
