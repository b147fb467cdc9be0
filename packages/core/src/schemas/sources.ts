import { z } from 'zod';
import { isoDateTime } from './common.js';

/**
 * Knowledge sources (DESIGN.md section 11 "Sources"): a knowledge base is filled by `website` sources (a crawled
 * start URL or sitemap), `file` sources (an upload) and its one `manual` source (the documents API).
 */

export const sourceTypeSchema = z.enum(['website', 'file', 'manual']);
export const sourceStatusSchema = z.enum(['queued', 'syncing', 'ready', 'failed']);
export const sourceScheduleSchema = z.enum(['off', 'daily', 'weekly']);

/** Default and ceiling of `maxPages`. */
export const DEFAULT_MAX_PAGES = 500;
export const MAX_PAGES_LIMIT = 10_000;

const httpUrl = (field: string) =>
  z
    .url({ error: `${field} must be an absolute http(s) URL` })
    .max(2000, { error: `${field} must be at most 2000 characters` })
    .refine((value) => /^https?:\/\//i.test(value), { error: `${field} must be an http or https URL` });

/** A URL prefix (`https://example.com/help/`) or a glob with `*` (`*\/docs/*`). */
const patternList = (field: string) =>
  z
    .array(z.string({ error: `${field} must hold strings` }).trim().min(1, { error: `${field} must not hold empty patterns` }).max(500), {
      error: `${field} must be an array of URL prefixes or * globs`,
    })
    .max(50, { error: `${field} holds at most 50 patterns` });

/** POST /knowledge-bases/{kbId}/sources: a website to crawl. Files are uploaded with …/files, manual documents with …/documents. */
export const createSourceRequestSchema = z.strictObject({
  type: z.literal('website', { error: 'type must be "website"' }),
  url: httpUrl('url'),
  include: patternList('include').optional(),
  exclude: patternList('exclude').optional(),
  maxPages: z
    .int({ error: 'maxPages must be a whole number' })
    .min(1, { error: 'maxPages must be at least 1' })
    .max(MAX_PAGES_LIMIT, { error: `maxPages must be at most ${MAX_PAGES_LIMIT}` })
    .optional(),
  schedule: sourceScheduleSchema.optional(),
});

export const sourceProgressSchema = z.object({
  found: z.int().min(0),
  fetched: z.int().min(0),
  unchanged: z.int().min(0),
  failed: z.int().min(0),
  skipped: z.int().min(0),
});

export const sourceLastSyncSchema = z.object({
  startedAt: isoDateTime,
  finishedAt: isoDateTime.nullable(),
  error: z.string().nullable(),
});

/** A source as the API shows it. */
export const sourceSchema = z.object({
  id: z.string(),
  knowledgeBaseId: z.string(),
  type: sourceTypeSchema,
  url: z.string().nullable(),
  fileName: z.string().nullable(),
  include: z.array(z.string()),
  exclude: z.array(z.string()),
  maxPages: z.int().nullable(),
  schedule: sourceScheduleSchema,
  status: sourceStatusSchema,
  progress: sourceProgressSchema,
  /** Documents the source holds now. */
  documents: z.int().min(0),
  lastSync: sourceLastSyncSchema.nullable(),
  nextSyncAt: isoDateTime.nullable(),
  createdAt: isoDateTime,
});

/** `GET …/sources/{sourceId}`: the source and the pages its last sync could not read (at most 100). */
export const sourceDetailSchema = sourceSchema.extend({
  failedPages: z.array(z.object({ url: z.string(), status: z.int().nullable(), reason: z.string() })),
});

export type CreateSourceRequest = z.infer<typeof createSourceRequestSchema>;
export type SourceView = z.infer<typeof sourceSchema>;
export type SourceDetail = z.infer<typeof sourceDetailSchema>;
export type SourceProgress = z.infer<typeof sourceProgressSchema>;
