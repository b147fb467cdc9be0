import { z } from 'zod';
import { REPLY_FORMATS, SCOPES, type ReplyFormat, type Scope } from '../domain.js';
import { LIFECYCLE_EVENTS } from '../store/webhook-store.js';
import { isoDateTime, languageSchema, timezoneSchema } from './common.js';
import { creditsSchema } from './credits.js';
import { formDefinitionSchema, surfacedFormSchema } from './form.js';
import { knowledgeSearchRequestSchema } from './knowledge.js';
import { contentSchema, messageAuthorSchema, messageFeedbackSchema } from './message.js';
import { productSchema } from './product.js';
import { sessionSchema } from './session.js';
import { widgetThemeSchema } from './widget.js';

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
  /** The visitor's thumbs on an AI reply (DESIGN.md section 12); absent until rated. */
  feedback: messageFeedbackSchema.optional(),
  createdAt: isoDateTime,
});

/** `GET /admin/v1/conversations/{widgetId}/{sessionId}`. */
export const conversationSchema = z.object({ session: sessionSchema, messages: z.array(conversationMessageSchema) });

/** `POST /admin/v1/conversations/{widgetId}/{sessionId}/messages`: a person's reply. */
export const operatorReplyRequestSchema = z.strictObject({ text: contentSchema });

const widgetName = z.string({ error: 'name must be a string' }).trim().min(1, { error: 'name must not be empty' }).max(200);

/** The settings an owner chooses for a widget; `POST /admin/v1/widgets` needs a name, `PATCH` takes any of them. */
export const widgetSettingsSchema = z.strictObject({
  name: widgetName.optional(),
  greeting: z.string().min(1).max(2000).optional(),
  /** System instructions for the agent. */
  instructions: z.string().min(1).max(20_000).optional(),
  language: languageSchema.optional(),
  timezone: timezoneSchema.optional(),
  /** Inactivity after which an active session expires; 60 s or more. */
  sessionTtlSeconds: z.int().min(60).max(365 * 86_400).optional(),
  knowledgeBaseIds: z.array(z.string().min(1).max(128)).max(50).optional(),
  /** 0-1: below this retrieval confidence the agent says it does not know instead of answering (DESIGN.md section 11). */
  confidenceThreshold: z.number().min(0).max(1).optional(),
});
export const createWidgetRequestSchema = widgetSettingsSchema.extend({ name: widgetName });

/** A widget as its owner sees it: never its identity secrets (shown once, when created or rotated). */
export const widgetViewSchema = z.object({
  id: z.string(),
  name: z.string(),
  instructions: z.string(),
  greeting: z.string(),
  language: z.string(),
  timezone: z.string(),
  sessionTtlSeconds: z.int(),
  confidenceThreshold: z.number(),
  knowledgeBaseIds: z.array(z.string()),
  forms: z.array(formDefinitionSchema),
  theme: widgetThemeSchema,
  createdAt: isoDateTime,
});

/** `PUT /admin/v1/widgets/{widgetId}/forms`: the file `svc widgets set-forms` reads, as an object. */
export const widgetFormsRequestSchema = z.strictObject({ forms: z.array(formDefinitionSchema).max(50) });

/** `POST …/identity-secret`: how long tokens signed with the replaced secret stay valid (default a day, at most 30 days). */
export const rotateSecretRequestSchema = z.strictObject({ graceSeconds: z.int().min(0).max(30 * 86_400).optional() });
export const identitySecretSchema = z.object({ identitySecret: z.string() });

/** A key as listings show it: never the key, its hash or its callback secret. */
export const keyViewSchema = z.object({
  id: z.string(),
  accountId: z.string(),
  name: z.string().nullable(),
  kind: z.enum(['secret', 'public']),
  /** The key's first characters, to recognise it. */
  prefix: z.string(),
  scopes: z.array(z.enum(SCOPES as [Scope, ...Scope[]])),
  callbackUrl: z.string().nullable(),
  replyFormat: z.enum(REPLY_FORMATS as [ReplyFormat, ...ReplyFormat[]]),
  widgetId: z.string().nullable(),
  allowedOrigins: z.array(z.string()),
  createdAt: isoDateTime,
  revokedAt: isoDateTime.nullable(),
});

export const createKeyRequestSchema = z.strictObject({
  name: z.string().trim().min(1).max(100).optional(),
  scopes: z.array(z.enum(SCOPES as [Scope, ...Scope[]], { error: `scopes are ${SCOPES.join(', ')}` })).min(1, { error: 'scopes must name at least one scope' }),
  callbackUrl: z.string().max(2000).optional(),
  replyFormat: z.enum(REPLY_FORMATS as [ReplyFormat, ...ReplyFormat[]]).optional(),
});
export const createPublicKeyRequestSchema = z.strictObject({
  widgetId: z.string().min(1).max(128),
  origins: z.array(z.string().max(2000)).min(1, { error: 'origins must name at least one origin, e.g. https://shop.example' }).max(50),
});

/** A new key: `key` (and `callbackSecret`, for a callback URL) are shown this once; only hashes are kept. */
export const createdKeySchema = z.object({ key: z.string(), apiKey: keyViewSchema, callbackSecret: z.string().optional() });
export const callbackSecretSchema = z.object({ callbackSecret: z.string() });

export const webhookViewSchema = z.object({
  id: z.string(),
  url: z.string(),
  events: z.array(z.enum(LIFECYCLE_EVENTS)),
  createdAt: isoDateTime,
  /** While a rotation's grace period runs: until when the replaced secret also signs. */
  secretRotatedUntil: isoDateTime.nullable(),
});
export const createWebhookRequestSchema = z.strictObject({
  url: z.string().max(2000),
  events: z.array(z.string()).min(1).max(LIFECYCLE_EVENTS.length * 2).optional(),
});
/** A new endpoint with its signing secret, shown this once. */
export const createdWebhookSchema = webhookViewSchema.extend({ secret: z.string() });
export const webhookSecretSchema = z.object({ secret: z.string() });

export const deliveryViewSchema = z.object({
  id: z.string(),
  event: z.string(),
  status: z.enum(['pending', 'delivered', 'failed']),
  attempts: z.int(),
  url: z.string().nullable(),
  sessionId: z.string(),
  messageId: z.string().nullable(),
  webhookId: z.string().nullable(),
  lastStatus: z.int().nullable(),
  lastError: z.string().nullable(),
  createdAt: isoDateTime,
  deliveredAt: isoDateTime.nullable(),
  nextAttemptAt: isoDateTime.nullable(),
});
export const deliveryFiltersSchema = z.strictObject({
  status: z.enum(['pending', 'delivered', 'failed'], { error: 'status must be pending, delivered or failed' }).optional(),
  limit: z.coerce.number({ error: 'limit must be a whole number from 1 to 1000' }).int().min(1).max(1000).optional(),
});

export const importedKnowledgeSchema = z.object({ products: z.int().min(0), documents: z.int().min(0) });
export const productPageQuerySchema = z.strictObject({
  cursor: z.string().max(512).optional(),
  limit: z.coerce.number({ error: 'limit must be a whole number from 1 to 200' }).int().min(1).max(200).optional(),
});

/**
 * `POST /admin/v1/knowledge-bases/{kbId}/search`: the text to look up as `text` (the console's), or as `query` like the
 * public search endpoint.
 */
export const adminSearchRequestSchema = knowledgeSearchRequestSchema
  .extend({ query: knowledgeSearchRequestSchema.shape.query.optional(), text: knowledgeSearchRequestSchema.shape.query.optional() })
  .refine((body) => body.text !== undefined || body.query !== undefined, { error: 'text is required', path: ['text'] });

/** `GET /admin/v1/analytics`: a range of time (default the last 30 days) and optionally one widget. */
export const analyticsQuerySchema = z.strictObject({
  from: z.string().max(40).optional(),
  to: z.string().max(40).optional(),
  widgetId: z.string().min(1).max(128).optional(),
});

export const analyticsSchema = z.object({
  /** Every UTC day of the range with the conversations started on it, 0 included. */
  conversationsPerDay: z.array(z.object({ date: z.string(), count: z.int() })),
  /** How the range's conversations ended; active ones are in none. */
  resolutions: z.object({ agent: z.int(), ended: z.int(), operator: z.int(), expired: z.int() }),
  ratings: z.record(z.string(), z.int()),
  /** Share (0..1) of the range's conversations that were handed to a person. */
  handoffRate: z.number().min(0).max(1),
  creditsByBucket: z.array(z.object({ bucket: z.string(), credits: z.number() })),
  totals: z.object({ conversations: z.int(), messages: z.int(), credits: z.number() }),
  /**
   * DESIGN.md section 12: every UTC day of the range with the AI's replies by outcome and the feedback given; the
   * resolution rate is the share answered without a handoff and without a thumbs-down, null on a day without turns.
   */
  turnsPerDay: z.array(
    z.object({
      date: z.string(),
      turns: z.int(),
      answered: z.int(),
      unanswered: z.int(),
      handedOff: z.int(),
      feedbackUp: z.int(),
      feedbackDown: z.int(),
      resolutionRate: z.number().min(0).max(1).nullable(),
      unansweredRate: z.number().min(0).max(1).nullable(),
    }),
  ),
  /** The same over the whole range. */
  turns: z.object({
    turns: z.int(),
    answered: z.int(),
    unanswered: z.int(),
    handedOff: z.int(),
    feedbackUp: z.int(),
    feedbackDown: z.int(),
    resolutionRate: z.number().min(0).max(1).nullable(),
    unansweredRate: z.number().min(0).max(1).nullable(),
  }),
});
