import { z } from 'zod';
import { messageReplySchema } from './message.js';

/**
 * The bodies POSTed to a server key's callback URL (DESIGN.md section 5), as `completedPayload` and
 * `failedPayload` write them; the OpenAPI document publishes them as `webhooks`.
 */
export const messageCompletedEventSchema = z.object({
  event: z.literal('message.completed'),
  messageId: z.string(),
  sessionId: z.string(),
  widgetId: z.string(),
  /** The reply as a sync call answers it, without its `messageId` (given above). */
  data: messageReplySchema.omit({ messageId: true }),
});

export const messageFailedEventSchema = z.object({
  event: z.literal('message.failed'),
  messageId: z.null(),
  sessionId: z.string(),
  widgetId: z.string(),
  error: z.object({ code: z.string(), message: z.string() }),
});
