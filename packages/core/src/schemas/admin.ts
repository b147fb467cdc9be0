import { z } from 'zod';
import { isoDateTime } from './common.js';
import { creditsSchema } from './credits.js';
import { surfacedFormSchema } from './form.js';
import { contentSchema, messageAuthorSchema } from './message.js';
import { productSchema } from './product.js';
import { sessionSchema } from './session.js';

/**
 * Resources of the admin API (`/admin/v1`, DESIGN.md section 10) that the public API does not have. Bodies are
 * strict: a misspelt field is a 400 naming it, not silently ignored.
 */

/** `GET /admin/v1/account`: the caller's account. */
export const accountViewSchema = z.object({
  id: z.string(),
  name: z.string(),
  /** Credits left; may dip below zero by the price of the last turn. */
  balance: z.number(),
  status: z.enum(['active', 'overdue']),
});
export type AccountViewBody = z.infer<typeof accountViewSchema>;

/** The start of a conversation's last message, for the inbox. */
export const messagePreviewSchema = z.object({
  role: z.enum(['user', 'assistant']),
  content: z.string(),
  createdAt: isoDateTime,
  author: messageAuthorSchema.optional(),
});

/** `GET /admin/v1/conversations`: a session as get-session shows it, with its last message. */
export const conversationSummarySchema = sessionSchema.extend({ lastMessage: messagePreviewSchema.nullable() });

/** A message of a conversation as the console shows it: products, forms, credits and, for a person's reply, its author. */
export const conversationMessageSchema = z.object({
  messageId: z.string(),
  role: z.enum(['user', 'assistant']),
  content: z.string(),
  products: z.array(productSchema),
  forms: z.array(surfacedFormSchema),
  credits: creditsSchema.nullable(),
  author: messageAuthorSchema.optional(),
  createdAt: isoDateTime,
});

/** `GET /admin/v1/conversations/{widgetId}/{sessionId}`. */
export const conversationSchema = z.object({ session: sessionSchema, messages: z.array(conversationMessageSchema) });

/** `POST /admin/v1/conversations/{widgetId}/{sessionId}/messages`: a person's reply. */
export const operatorReplyRequestSchema = z.strictObject({ text: contentSchema });
