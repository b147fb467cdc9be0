import { z } from 'zod';
import { identitySchema, isoDateTime, timezoneSchema, visitorContextSchema } from './common.js';
import { creditsSchema, usageSchema } from './credits.js';
import { surfacedFormSchema } from './form.js';
import { productSchema } from './product.js';
import { responseTypeSchema } from './response-type.js';

const codePoints = (value: string): number => [...value].length;

/** Spec 4.2: 1-4000 characters (counted as Unicode code points, so an emoji is one). */
export const contentSchema = z
  .string({ error: 'content must be a string' })
  .refine((value) => value.trim().length > 0, { error: 'content must not be empty or blank' })
  .refine((value) => codePoints(value) <= 4000, { error: 'content must be at most 4000 characters' });

export { responseTypeSchema };

/** POST …/messages (spec 4.2). */
export const sendMessageRequestSchema = z.strictObject({
  content: contentSchema,
  response_type: responseTypeSchema.optional(),
  visitorContext: visitorContextSchema.optional(),
  identity: identitySchema.optional(),
  timezone: timezoneSchema.optional(),
});

/** DESIGN.md section 13: a quick reply (the widget sends `text`) or a link (http or https, opened in a new tab). */
export const actionSchema = z.discriminatedUnion('type', [
  z.object({ type: z.literal('reply'), label: z.string(), text: z.string() }),
  z.object({ type: z.literal('link'), label: z.string(), url: z.string() }),
]);

/** A knowledge document an answer used (DESIGN.md section 11); empty when the agent did not answer from knowledge. */
export const messageSourceSchema = z.object({ documentId: z.string(), title: z.string(), url: z.string().nullable() });

/** The assistant reply of a sync turn (spec 2.4). `forms` only when a form is surfaced. */
export const messageReplySchema = z.object({
  messageId: z.string(),
  content: z.string(),
  products: z.array(productSchema),
  actions: z.array(actionSchema),
  sources: z.array(messageSourceSchema),
  forms: z.array(surfacedFormSchema).optional(),
  sessionEnded: z.boolean(),
  credits: creditsSchema,
  usage: usageSchema,
});

/** 202: the reply is on its way (callback mode: messageId null; slow sync turn: the id it will land under). */
export const processingReplySchema = z.object({
  messageId: z.string().nullable(),
  status: z.literal('processing'),
});

/** On replies a person wrote during a handoff (DESIGN.md section 6); AI and visitor messages have none. */
export const messageAuthorSchema = z.object({ type: z.literal('operator'), name: z.string() });

/** POST …/messages/{messageId}/feedback (DESIGN.md section 12): thumbs on one assistant reply; again replaces it. */
export const messageFeedbackRequestSchema = z.strictObject({
  rating: z.enum(['up', 'down'], { error: 'rating must be "up" or "down"' }),
  reason: z.enum(['wrong', 'incomplete', 'unhelpful', 'other'], { error: 'reason must be "wrong", "incomplete", "unhelpful" or "other"' }).optional(),
  comment: z
    .string({ error: 'comment must be a string' })
    .refine((value) => codePoints(value) <= 1000, { error: 'comment must be at most 1000 characters' })
    .optional(),
});

/** The feedback on a reply, as the history and the `message.feedback` webhook show it. */
export const messageFeedbackSchema = z.object({
  rating: z.enum(['up', 'down']),
  reason: z.enum(['wrong', 'incomplete', 'unhelpful', 'other']).nullable(),
  comment: z.string().nullable(),
  updatedAt: isoDateTime,
});

/** The answer to a feedback POST: the message it is on, and the feedback now stored. */
export const messageFeedbackReplySchema = z.object({ messageId: z.string(), feedback: messageFeedbackSchema });

/** GET …/messages item (spec 2.5). `feedback` on assistant replies only: null until the visitor rates it. */
export const historyItemSchema = z.object({
  messageId: z.string(),
  role: z.enum(['user', 'assistant']),
  content: z.string(),
  products: z.array(productSchema).optional(),
  author: messageAuthorSchema.optional(),
  feedback: messageFeedbackSchema.nullable().optional(),
  createdAt: isoDateTime,
});

/** Query of every list endpoint (spec 4.7, 8). */
export const listQuerySchema = z.object({
  limit: z
    .string()
    .optional()
    .transform((value, ctx) => {
      if (value === undefined || value === '') return 50;
      const n = Number(value);
      if (!/^\d+$/.test(value) || !Number.isSafeInteger(n) || n < 1 || n > 100) {
        ctx.addIssue({ code: 'custom', message: 'limit must be an integer from 1 to 100' });
        return z.NEVER;
      }
      return n;
    }),
  cursor: z.string().max(512, { error: 'cursor is not a cursor this server issued' }).optional(),
});

export type SendMessageRequest = z.infer<typeof sendMessageRequestSchema>;
export type MessageReply = z.infer<typeof messageReplySchema>;
export type ProcessingReply = z.infer<typeof processingReplySchema>;
export type HistoryItem = z.infer<typeof historyItemSchema>;
export type MessageFeedbackRequest = z.infer<typeof messageFeedbackRequestSchema>;
export type MessageFeedbackView = z.infer<typeof messageFeedbackSchema>;
export type MessageFeedbackReply = z.infer<typeof messageFeedbackReplySchema>;
export type ListQuery = z.infer<typeof listQuerySchema>;
