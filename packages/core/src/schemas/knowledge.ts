import { z } from 'zod';
import { isoDateTime, languageSchema, webUrl } from './common.js';
import { productSchema } from './product.js';

/** POST /knowledge-bases */
export const createKnowledgeBaseRequestSchema = z.strictObject({
  name: z.string({ error: 'name must be a string' }).trim().min(1, { error: 'name must not be empty' }).max(200),
});

export const knowledgeBaseSchema = z.object({
  id: z.string(),
  name: z.string(),
  createdAt: isoDateTime,
});

/** PUT /knowledge-bases/{kbId}/products/{productId}: the product; the path names it, so `id` may only repeat it. */
export const productBodySchema = z.strictObject(productSchema.partial({ id: true }).shape);

/** POST /knowledge-bases/{kbId}/products: upsert many at once. */
export const upsertProductsRequestSchema = z.strictObject({
  products: z.array(productSchema).min(1, { error: 'products must not be empty' }).max(1000, { error: 'at most 1000 products per request' }),
});

/** POST /knowledge-bases/{kbId}/documents, PUT …/documents/{documentId} */
export const documentRequestSchema = z.strictObject({
  title: z.string({ error: 'title must be a string' }).trim().min(1, { error: 'title must not be empty' }).max(300),
  content: z
    .string({ error: 'content must be a string' })
    .refine((value) => value.trim().length > 0, { error: 'content must not be empty or blank' })
    .refine((value) => value.length <= 60_000, { error: 'content must be at most 60000 characters' }),
  url: webUrl('url').optional(),
});

export const documentSchema = z.object({
  id: z.string(),
  knowledgeBaseId: z.string(),
  /** The source the document came from (DESIGN.md section 11 "Sources"): a website, a file, or the manual source. */
  sourceId: z.string().nullable(),
  title: z.string(),
  url: z.string().nullable(),
  createdAt: isoDateTime,
});

/** POST /knowledge-bases/{kbId}/search: what the agents' retrieval sees. */
export const knowledgeSearchRequestSchema = z.strictObject({
  query: z.string({ error: 'query must be a string' }).trim().min(1, { error: 'query must not be empty' }).max(1000),
  language: languageSchema.optional(),
  limit: z.number().int().min(1).max(20).optional(),
});

/** Which retrievers found a passage (DESIGN.md section 11): full text, vector similarity, the rerank provider. */
export const retrieverNameSchema = z.enum(['text', 'vector', 'rerank']);

export const knowledgeSearchResultSchema = z.object({
  passages: z.array(
    z.object({
      documentId: z.string(),
      title: z.string(),
      url: z.string().nullable(),
      content: z.string(),
      /** The full-text rank the store gave (0 when only vector similarity found the passage). */
      rank: z.number(),
      /** The retrieval's score, best first: full text with proximity, fused with vectors, or the reranker's. */
      score: z.number(),
      /** 0-1: how much of the query this passage covers; below the widget's threshold the agent does not answer from it. */
      confidence: z.number().min(0).max(1),
      retrievers: z.array(retrieverNameSchema),
    }),
  ),
  products: z.array(productSchema.extend({ rank: z.number(), confidence: z.number().min(0).max(1) })),
  /** The best passage's confidence (0 when nothing matched). */
  confidence: z.number().min(0).max(1),
});

/**
 * The embedding job's progress on a knowledge base (DESIGN.md section 11): its passages, and how many have a vector
 * of the configured model. Null when no embedding provider is configured (search is full text only).
 */
export const embeddingProgressSchema = z.object({
  /** The provider's model, e.g. `openai:text-embedding-3-small:1536`. */
  model: z.string(),
  embedded: z.int().min(0),
  passages: z.int().min(0),
});

/** `GET /knowledge-bases/{kbId}`: the knowledge base, how many products and documents it holds, and its embeddings. */
export const knowledgeBaseDetailSchema = knowledgeBaseSchema.extend({
  products: z.int().min(0),
  documents: z.int().min(0),
  embeddings: embeddingProgressSchema.nullable(),
});
/** `POST /knowledge-bases/{kbId}/products`. */
export const upsertedProductsSchema = z.object({ upserted: z.int().min(1) });
/** `DELETE` of a product or a document. */
export const deletedSchema = z.object({ id: z.string(), deleted: z.literal(true) });

export type KnowledgeBaseView = z.infer<typeof knowledgeBaseSchema>;
export type KnowledgeBaseDetail = z.infer<typeof knowledgeBaseDetailSchema>;
export type UpsertedProducts = z.infer<typeof upsertedProductsSchema>;
export type Deleted = z.infer<typeof deletedSchema>;
export type DocumentView = z.infer<typeof documentSchema>;
export type KnowledgeSearchRequest = z.infer<typeof knowledgeSearchRequestSchema>;
export type KnowledgeSearchResult = z.infer<typeof knowledgeSearchResultSchema>;
