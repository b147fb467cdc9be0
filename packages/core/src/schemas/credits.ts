import { z } from 'zod';

export const creditsSchema = z.object({
  chat: z.number(),
  retrieval: z.number(),
  orchestration: z.number(),
  embedding: z.number(),
  rerank: z.number(),
  plugin: z.number(),
  pluginRerank: z.number(),
  crawler: z.number(),
});

export const usageSchema = z.object({
  inputTokens: z.number().int(),
  outputTokens: z.number().int(),
});

export const metaSchema = z.object({ creditsConsumed: z.number() });

export const paginationSchema = z.object({
  cursor: z.string().nullable(),
  hasMore: z.boolean(),
  total: z.number().int().optional(),
});

export const errorBodySchema = z.object({
  error: z.object({
    code: z.string(),
    message: z.string(),
    field: z.string().optional(),
  }),
  meta: metaSchema,
});

/** `{ data, meta }` around a single object (spec 2.7). */
export function envelope<T extends z.ZodType>(data: T) {
  return z.object({ data, meta: metaSchema });
}

/** `{ data: [], pagination, meta }` around a page (spec 2.7). */
export function listEnvelope<T extends z.ZodType>(item: T) {
  return z.object({ data: z.array(item), pagination: paginationSchema, meta: metaSchema });
}
