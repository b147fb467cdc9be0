import { z } from 'zod';
import {
  isoDateTime,
  languageSchema,
  sessionIdSchema,
  timezoneSchema,
  visitorContextSchema,
  visitorIdSchema,
} from './common.js';

export const sessionStatusSchema = z.enum(['active', 'resolved', 'expired']);
export const ratingSchema = z.enum(['positive', 'negative'], { error: 'rating must be "positive" or "negative"' });

/** POST /widgets/{widgetId}/conversations (spec 4.1). */
export const createSessionRequestSchema = z.strictObject({
  visitorId: visitorIdSchema,
  sessionId: sessionIdSchema.optional(),
  visitorContext: visitorContextSchema.optional(),
  language: languageSchema.optional(),
  timezone: timezoneSchema.optional(),
});

export const createdSessionSchema = z.object({
  sessionId: z.string(),
  widgetId: z.string(),
  visitorId: z.string(),
  status: sessionStatusSchema,
  createdAt: isoDateTime,
  resumed: z.boolean(),
});

/** A person who answers during a handoff: an operator's id (null for a CLI name or a server key) and name. */
export const operatorRefSchema = z.object({ id: z.string().nullable(), name: z.string() });

/** DESIGN.md section 6: null while the AI answers; `requested` until an operator accepts, then `active`. */
export const handoffSchema = z
  .object({
    state: z.enum(['requested', 'active']),
    since: isoDateTime,
    operator: operatorRefSchema.nullable(),
  })
  .nullable();

/** GET /widgets/{widgetId}/conversations/{sessionId} (spec 4.6). */
export const sessionSchema = z.object({
  sessionId: z.string(),
  widgetId: z.string(),
  visitorId: z.string(),
  status: sessionStatusSchema,
  messageCount: z.number().int(),
  rating: ratingSchema.nullable(),
  createdAt: isoDateTime,
  resolvedAt: isoDateTime.nullable(),
  handoff: handoffSchema,
});

/** POST …/end (spec 4.4). */
export const endedSessionSchema = z.object({
  sessionId: z.string(),
  status: z.literal('resolved'),
  resolvedAt: isoDateTime,
});

/** POST …/rate (spec 4.5). */
export const rateSessionRequestSchema = z.strictObject({ rating: ratingSchema });

export const ratedSessionSchema = z.object({ sessionId: z.string(), rating: ratingSchema });

export type CreateSessionRequest = z.infer<typeof createSessionRequestSchema>;
export type CreatedSession = z.infer<typeof createdSessionSchema>;
export type SessionView = z.infer<typeof sessionSchema>;
export type HandoffView = z.infer<typeof handoffSchema>;
export type EndedSession = z.infer<typeof endedSessionSchema>;
export type RateSessionRequest = z.infer<typeof rateSessionRequestSchema>;
export type RatedSession = z.infer<typeof ratedSessionSchema>;
