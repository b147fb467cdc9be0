import { z } from 'zod';
import { messageAuthorSchema, messageFeedbackSchema, messageReplySchema } from './message.js';
import { sessionSchema } from './session.js';

/**
 * The bodies POSTed to a server key's callback URL (DESIGN.md section 5), as `completedPayload` and
 * `failedPayload` write them; the OpenAPI document publishes them as `webhooks`.
 */
export const messageCompletedEventSchema = z.object({
  event: z.literal('message.completed'),
  messageId: z.string(),
  sessionId: z.string(),
  widgetId: z.string(),
  /** The reply as a sync call answers it, without its `messageId` (given above); `author` on a person's reply. */
  data: messageReplySchema.omit({ messageId: true }).extend({ author: messageAuthorSchema.optional() }),
});

export const messageFailedEventSchema = z.object({
  event: z.literal('message.failed'),
  messageId: z.null(),
  sessionId: z.string(),
  widgetId: z.string(),
  error: z.object({ code: z.string(), message: z.string() }),
});

/**
 * The lifecycle webhook bodies (DESIGN.md section 5) as `writeLifecycleEvent` writes them: POSTed to an account's
 * webhook endpoints, `data` being the session as get-session shows it after the change.
 */
function lifecycleEventSchema<Name extends string>(name: Name) {
  return z.object({
    event: z.literal(name),
    /** The event's id, shared by every endpoint told about the change. */
    id: z.string(),
    /** This delivery's id (equal to `X-Svc-Delivery`), stable across retries. */
    deliveryId: z.string(),
    createdAt: z.string().datetime(),
    data: sessionSchema,
  });
}

export const sessionCreatedEventSchema = lifecycleEventSchema('session.created');
export const sessionResolvedEventSchema = lifecycleEventSchema('session.resolved').extend({
  /** `ended`: the end-session call; `agent`: the AI concluded the conversation; `operator`: a person resolved it. */
  reason: z.enum(['ended', 'agent', 'operator']),
});
export const sessionExpiredEventSchema = lifecycleEventSchema('session.expired');
export const sessionRatedEventSchema = lifecycleEventSchema('session.rated');
/** A visitor rated an AI reply (DESIGN.md section 12): `feedback` names the message; `data` is its session. */
export const messageFeedbackEventSchema = lifecycleEventSchema('message.feedback').extend({
  feedback: messageFeedbackSchema.extend({ messageId: z.string() }),
});
/** `requested` (the visitor asked for a person), `active` (an operator took over), `released` (back to the AI). */
export const sessionHandoffEventSchema = lifecycleEventSchema('session.handoff').extend({
  state: z.enum(['requested', 'active', 'released']),
});
