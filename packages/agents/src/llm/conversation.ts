import type { AgentRequest } from '@svc/core/store-kit';
import type { ModelMessage } from 'ai';

/**
 * The turn as chat messages: the stored history, oldest first, then the visitor's new message. Only role and
 * text are sent: products and forms of earlier replies were shown to the visitor, not said by the model.
 * Blank items are skipped because Anthropic rejects empty text blocks.
 */
export function conversationMessages(request: Pick<AgentRequest, 'history' | 'message'>): ModelMessage[] {
  const history: ModelMessage[] = request.history
    .filter((item) => item.content.trim() !== '')
    .map((item) => (item.role === 'user' ? { role: 'user', content: item.content } : { role: 'assistant', content: item.content }));
  return [...history, { role: 'user', content: request.message }];
}
