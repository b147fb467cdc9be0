import { z } from 'zod';
import type { KnowledgeBase } from '../domain.js';
import { SvcError } from '../errors.js';
import { documentView, kbView, knowledgeBaseDetail, searchView } from '../engine/knowledge.js';
import {
  createKnowledgeBaseRequestSchema,
  knowledgeSearchRequestSchema,
  type DocumentView,
  type KnowledgeBaseDetail,
  type KnowledgeBaseView,
  type KnowledgeSearchResult,
} from '../schemas/knowledge.js';
import { productSchema, type ProductInput } from '../schemas/product.js';
import { parseInput } from '../schemas/validate.js';
import type { StoreOps } from '../store/store.js';
import type { Deleted } from '../schemas/knowledge.js';
import type { SourceDetail, SourceView } from '../schemas/sources.js';
import type { UploadedFile } from '../sources/site-reader.js';
import { createFileSource, createWebsiteSource, listSourceViews, manualSource, removeSource, requestSync, sourceDetail } from '../sources/sources.js';
import { requireAccount } from './accounts.js';
import { owned, type AccountScope, type AdminContext } from './context.js';

/**
 * Knowledge bases as their operator manages them: like the public API's, but free (an operator trying a search is
 * not a visitor's turn) and scoped to the operator's account.
 */

/** The file `svc kb import` reads (and the console uploads): products and documents of one knowledge base. */
export const knowledgeFileSchema = z.object({
  name: z.string().min(1).max(200).optional(),
  products: z.array(productSchema).max(100_000).default([]),
  documents: z
    .array(
      z.object({
        title: z.string().min(1).max(300),
        content: z.string().min(1).max(1_000_000),
        url: z.url().optional(),
      }),
    )
    .max(10_000)
    .default([]),
});

export type KnowledgeFile = z.input<typeof knowledgeFileSchema>;

export interface ImportedKnowledge {
  products: number;
  documents: number;
}

function parseKnowledgeFile(content: unknown): z.output<typeof knowledgeFileSchema> {
  const parsed = knowledgeFileSchema.safeParse(content);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    const field = issue.path.join('.');
    throw new SvcError('validation_failed', `${field || 'file'}: ${issue.message}`, { field });
  }
  const ids = new Set<string>();
  for (const product of parsed.data.products) {
    if (ids.has(product.id)) throw new SvcError('validation_failed', `Product id ${product.id} appears twice.`, { field: 'products' });
    ids.add(product.id);
  }
  return parsed.data;
}

async function writeKnowledge(ctx: AdminContext, tx: StoreOps, kb: KnowledgeBase, file: z.output<typeof knowledgeFileSchema>): Promise<ImportedKnowledge> {
  if (file.products.length > 0) await tx.upsertProducts(kb.id, file.products);
  const now = ctx.clock.now();
  // Imported documents are written by hand: the knowledge base's manual source (DESIGN.md section 11 "Sources").
  const sourceId = file.documents.length > 0 ? (await manualSource(ctx, tx, kb)).id : null;
  for (const doc of file.documents) {
    await tx.insertDocument({ id: ctx.ids.random('doc'), knowledgeBaseId: kb.id, sourceId, title: doc.title, content: doc.content, url: doc.url ?? null, createdAt: now });
  }
  return { products: file.products.length, documents: file.documents.length };
}

/** A new knowledge base holding the file's products and documents; all of it or nothing. */
export async function importKnowledgeBase(
  ctx: AdminContext,
  input: { accountId: string; name?: string; content: unknown },
): Promise<{ knowledgeBase: KnowledgeBase } & ImportedKnowledge> {
  const account = await requireAccount(ctx, input.accountId);
  const file = parseKnowledgeFile(input.content);
  const knowledgeBase: KnowledgeBase = {
    id: ctx.ids.random('kb'),
    accountId: account.id,
    name: input.name ?? file.name ?? 'Knowledge base',
    createdAt: ctx.clock.now(),
  };
  const counts = await ctx.store.transaction(async (tx) => {
    await tx.insertKnowledgeBase(knowledgeBase);
    return writeKnowledge(ctx, tx, knowledgeBase, file);
  });
  if (counts.documents > 0) ctx.onWork?.('embedding');
  return { knowledgeBase, ...counts };
}

async function loadOwnKnowledgeBase(ctx: AdminContext, scope: AccountScope, kbId: string): Promise<KnowledgeBase> {
  return owned(scope, await ctx.store.getKnowledgeBase(kbId), {
    code: 'knowledge_base_not_found',
    message: `Knowledge base ${kbId} does not exist.`,
    field: 'knowledgeBase',
  });
}

/** Adds the file's products (same ids replaced) and documents to an existing knowledge base; all or nothing. */
export async function importIntoKnowledgeBase(ctx: AdminContext, scope: AccountScope, kbId: string, content: unknown): Promise<ImportedKnowledge> {
  const kb = await loadOwnKnowledgeBase(ctx, scope, kbId);
  const file = parseKnowledgeFile(content);
  const counts = await ctx.store.transaction((tx) => writeKnowledge(ctx, tx, kb, file));
  if (counts.documents > 0) ctx.onWork?.('embedding');
  return counts;
}

export async function createKnowledgeBase(ctx: AdminContext, accountId: string, body: unknown): Promise<KnowledgeBaseView> {
  const account = await requireAccount(ctx, accountId);
  const { name } = parseInput(createKnowledgeBaseRequestSchema, body);
  const kb: KnowledgeBase = { id: ctx.ids.random('kb'), accountId: account.id, name, createdAt: ctx.clock.now() };
  await ctx.store.insertKnowledgeBase(kb);
  return kbView(kb);
}

export async function listKnowledgeBases(ctx: AdminContext, accountId: string): Promise<KnowledgeBaseView[]> {
  return (await ctx.store.listKnowledgeBases(accountId)).map(kbView);
}

export async function getKnowledgeBase(ctx: AdminContext, scope: AccountScope, kbId: string): Promise<KnowledgeBaseDetail> {
  return knowledgeBaseDetail(ctx, await loadOwnKnowledgeBase(ctx, scope, kbId));
}

/** Products in id order, `limit` (1-200, default 50) after the product id `cursor`. */
export async function listKnowledgeProducts(
  ctx: AdminContext,
  scope: AccountScope,
  kbId: string,
  query: { cursor?: string; limit?: number } = {},
): Promise<{ products: ProductInput[]; nextCursor: string | null }> {
  const limit = query.limit ?? 50;
  if (!Number.isInteger(limit) || limit < 1 || limit > 200) {
    throw new SvcError('validation_failed', 'limit must be a whole number from 1 to 200.', { field: 'limit' });
  }
  const kb = await loadOwnKnowledgeBase(ctx, scope, kbId);
  const page = await ctx.store.listProducts({ knowledgeBaseId: kb.id, limit: limit + 1, ...(query.cursor ? { afterId: query.cursor } : {}) });
  const products = page.slice(0, limit);
  return { products, nextCursor: page.length > limit ? products.at(-1)!.id : null };
}

export async function listKnowledgeDocuments(ctx: AdminContext, scope: AccountScope, kbId: string): Promise<DocumentView[]> {
  const kb = await loadOwnKnowledgeBase(ctx, scope, kbId);
  return (await ctx.store.listDocuments(kb.id)).map(documentView);
}

/** What the agent would read for `body.query`: the search widgets run on every turn, tried out by the operator. */
export async function searchKnowledge(ctx: AdminContext, scope: AccountScope, kbId: string, body: unknown): Promise<KnowledgeSearchResult> {
  const input = parseInput(knowledgeSearchRequestSchema, body);
  const { meters: _meters, ...view } = await searchView(ctx, await loadOwnKnowledgeBase(ctx, scope, kbId), input);
  return view;
}

// Knowledge sources (DESIGN.md section 11 "Sources"), as the console manages them: the public API's operations.

export async function addKnowledgeSource(ctx: AdminContext, scope: AccountScope, target: { kbId: string; body: unknown }): Promise<SourceView> {
  return createWebsiteSource(ctx, await loadOwnKnowledgeBase(ctx, scope, target.kbId), target.body);
}

export async function listKnowledgeSources(ctx: AdminContext, scope: AccountScope, kbId: string): Promise<SourceView[]> {
  return listSourceViews(ctx.store, await loadOwnKnowledgeBase(ctx, scope, kbId));
}

export async function getKnowledgeSource(ctx: AdminContext, scope: AccountScope, target: { kbId: string; sourceId: string }): Promise<SourceDetail> {
  return sourceDetail(ctx.store, await loadOwnKnowledgeBase(ctx, scope, target.kbId), target.sourceId);
}

export async function syncKnowledgeSource(ctx: AdminContext, scope: AccountScope, target: { kbId: string; sourceId: string }): Promise<SourceView> {
  return requestSync(ctx, await loadOwnKnowledgeBase(ctx, scope, target.kbId), target.sourceId);
}

export async function deleteKnowledgeSource(ctx: AdminContext, scope: AccountScope, target: { kbId: string; sourceId: string }): Promise<Deleted> {
  return removeSource(ctx, await loadOwnKnowledgeBase(ctx, scope, target.kbId), target.sourceId);
}

export async function addKnowledgeFile(ctx: AdminContext, scope: AccountScope, target: { kbId: string; file: UploadedFile }): Promise<SourceView> {
  return createFileSource(ctx, await loadOwnKnowledgeBase(ctx, scope, target.kbId), target.file);
}
