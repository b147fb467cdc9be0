import type { KnowledgeBase, KnowledgeDocument, Principal } from '../domain.js';
import { flatCredits, zeroCredits } from '../credits.js';
import type { RetrievalMeters } from '../retrieval/retrieve.js';
import { SvcError } from '../errors.js';
import {
  createKnowledgeBaseRequestSchema,
  documentRequestSchema,
  knowledgeSearchRequestSchema,
  productBodySchema,
  upsertProductsRequestSchema,
  type Deleted,
  type DocumentView,
  type KnowledgeBaseDetail,
  type KnowledgeBaseView,
  type KnowledgeSearchRequest,
  type KnowledgeSearchResult,
  type UpsertedProducts,
} from '../schemas/knowledge.js';
import type { StoreOps } from '../store/store.js';
import type { EmbeddingProvider } from '../retrieval/providers.js';
import type { ProductInput } from '../schemas/product.js';
import { listQuerySchema } from '../schemas/message.js';
import { parseInput } from '../schemas/validate.js';
import { requireAnyScope, requireCredits, requireScope } from './access.js';
import { charge } from './billing.js';
import { manualSource } from '../sources/sources.js';
import type { EngineResult, PageResult } from './context.js';
import type { EngineContext } from '../context.js';
import type { ListQueryInput } from './lists.js';

/**
 * Knowledge bases over HTTP (issue: knowledge bases): `knowledge:write` writes, `knowledge:read` or
 * `knowledge:write` reads. Management calls are free; pages and searches are billed like history pages and
 * retrievals. Another account's knowledge base is reported missing.
 */

const READ = ['knowledge:read', 'knowledge:write'] as const;

async function ownKnowledgeBase(ctx: EngineContext, principal: Principal, id: string): Promise<KnowledgeBase> {
  const kb = await ctx.store.getKnowledgeBase(id);
  if (!kb || kb.accountId !== principal.accountId) throw new SvcError('knowledge_base_not_found', `Knowledge base ${id} was not found.`);
  return kb;
}

export const kbView = (kb: KnowledgeBase): KnowledgeBaseView => ({ id: kb.id, name: kb.name, createdAt: kb.createdAt.toISOString() });
export const documentView = (doc: KnowledgeDocument): DocumentView => ({
  id: doc.id,
  knowledgeBaseId: doc.knowledgeBaseId,
  sourceId: doc.sourceId,
  title: doc.title,
  url: doc.url,
  createdAt: doc.createdAt.toISOString(),
});
/**
 * A page of a list ordered by (createdAt, id), continued from a keyset position rather than an index, so items
 * deleted between pages (even the cursor's own) do not break or shift paging (DESIGN.md section 3).
 */
async function keysetPage<T extends { id: string; createdAt: Date }>(
  ctx: EngineContext,
  collection: string,
  all: T[],
  cursor: string | undefined,
  limit: number,
): Promise<{ page: T[]; hasMore: boolean; next: string | null }> {
  const key = (item: T): string => `${item.createdAt.toISOString()}|${item.id}`;
  let rest = all;
  if (cursor !== undefined) {
    const after = await ctx.cursors.decode(collection, cursor);
    if (typeof after !== 'string' || !after.includes('|')) {
      throw new SvcError('invalid_cursor', 'cursor does not belong to this list.', { field: 'cursor' });
    }
    rest = all.filter((item) => key(item) > after);
  }
  const page = rest.slice(0, limit);
  const hasMore = rest.length > limit;
  return { page, hasMore, next: hasMore ? await ctx.cursors.encode(collection, key(page.at(-1)!)) : null };
}

const round3 = (value: number): number => Math.round(value * 1000) / 1000;
const free = <T>(status: 200 | 201, data: T): EngineResult<T> => ({ status, data, creditsConsumed: 0 });

export async function createKnowledgeBase(ctx: EngineContext, principal: Principal, body: unknown): Promise<EngineResult<KnowledgeBaseView>> {
  requireScope(principal, 'knowledge:write');
  const input = parseInput(createKnowledgeBaseRequestSchema, body);
  const kb: KnowledgeBase = { id: ctx.ids.random('kb'), accountId: principal.accountId, name: input.name, createdAt: ctx.clock.now() };
  await ctx.store.insertKnowledgeBase(kb);
  return free(201, kbView(kb));
}

export async function listKnowledgeBases(ctx: EngineContext, principal: Principal, query: ListQueryInput): Promise<PageResult<KnowledgeBaseView>> {
  requireAnyScope(principal, READ);
  const { limit, cursor } = parseInput(listQuerySchema, query);
  const all = await ctx.store.listKnowledgeBases(principal.accountId);
  const { page, hasMore, next } = await keysetPage(ctx, `knowledge-bases:${principal.accountId}`, all, cursor, limit);
  return { status: 200, data: page.map(kbView), pagination: { cursor: next, hasMore, total: all.length }, creditsConsumed: 0 };
}

export async function getKnowledgeBase(ctx: EngineContext, principal: Principal, id: string): Promise<EngineResult<KnowledgeBaseDetail>> {
  requireAnyScope(principal, READ);
  return free(200, await knowledgeBaseDetail(ctx, await ownKnowledgeBase(ctx, principal, id)));
}

/**
 * The knowledge base with how many products and documents it holds and, when an embedding provider is configured,
 * how many of its passages have a vector of the provider's model (the embedding job's progress).
 */
export async function knowledgeBaseDetail(ctx: { store: StoreOps; embeddings?: EmbeddingProvider | undefined }, kb: KnowledgeBase): Promise<KnowledgeBaseDetail> {
  const { store, embeddings } = ctx;
  const [products, documents, progress] = await Promise.all([
    store.countProducts(kb.id),
    store.listDocuments(kb.id),
    embeddings === undefined ? null : store.embeddingProgress({ knowledgeBaseIds: [kb.id], model: embeddings.model }),
  ]);
  const counts = progress?.[0];
  return {
    ...kbView(kb),
    products,
    documents: documents.length,
    embeddings: embeddings === undefined ? null : { model: embeddings.model, embedded: counts?.embedded ?? 0, passages: counts?.passages ?? 0 },
  };
}

/** What retrieval returns for a query, as the API shows it: what the agent would read. */
export async function searchView(ctx: Pick<EngineContext, 'retriever'>, kb: KnowledgeBase, input: KnowledgeSearchRequest): Promise<KnowledgeSearchResult & { meters: RetrievalMeters }> {
  const found = await ctx.retriever.retrieve({
    knowledgeBaseIds: [kb.id],
    text: input.query,
    ...(input.language === undefined ? {} : { language: input.language }),
    limit: input.limit ?? 5,
  });
  return {
    passages: found.passages.map((p) => ({
      documentId: p.documentId,
      title: p.title,
      url: p.url,
      content: p.content,
      rank: p.rank,
      score: p.score,
      confidence: p.confidence,
      retrievers: p.retrievers,
    })),
    products: found.products.map((h) => ({ ...h.product, rank: h.rank, confidence: h.confidence })),
    confidence: found.confidence,
    meters: found.meters,
  };
}

export async function putProduct(ctx: EngineContext, principal: Principal, kbId: string, productId: string, body: unknown): Promise<EngineResult<ProductInput>> {
  requireScope(principal, 'knowledge:write');
  const { id, ...fields } = parseInput(productBodySchema, body);
  // The path names the product; a body `id` (a catalogue row sent as is) may repeat it but never redirect the write.
  if (id !== undefined && id !== productId) throw new SvcError('validation_failed', `id "${id}" differs from the product id in the path; leave it out or send the same.`, { field: 'id' });
  const product = { id: productId, ...fields };
  if (productId.length === 0 || productId.length > 128) throw new SvcError('validation_failed', 'product id must be 1-128 characters.', { field: 'productId' });
  const kb = await ownKnowledgeBase(ctx, principal, kbId);
  await ctx.store.upsertProducts(kb.id, [product]);
  return free(200, product);
}

export async function upsertProducts(ctx: EngineContext, principal: Principal, kbId: string, body: unknown): Promise<EngineResult<UpsertedProducts>> {
  requireScope(principal, 'knowledge:write');
  const { products } = parseInput(upsertProductsRequestSchema, body);
  const ids = new Set<string>();
  for (const [index, product] of products.entries()) {
    if (ids.has(product.id)) throw new SvcError('validation_failed', `Product id ${product.id} appears twice.`, { field: `products.${index}.id` });
    ids.add(product.id);
  }
  const kb = await ownKnowledgeBase(ctx, principal, kbId);
  await ctx.store.upsertProducts(kb.id, products);
  return free(200, { upserted: products.length });
}

export async function deleteProduct(ctx: EngineContext, principal: Principal, kbId: string, productId: string): Promise<EngineResult<Deleted>> {
  requireScope(principal, 'knowledge:write');
  const kb = await ownKnowledgeBase(ctx, principal, kbId);
  if (!(await ctx.store.deleteProduct(kb.id, productId))) throw new SvcError('product_not_found', `Product ${productId} was not found.`);
  return free(200, { id: productId, deleted: true });
}

export async function addDocument(ctx: EngineContext, principal: Principal, kbId: string, body: unknown): Promise<EngineResult<DocumentView>> {
  requireScope(principal, 'knowledge:write');
  const input = parseInput(documentRequestSchema, body);
  const kb = await ownKnowledgeBase(ctx, principal, kbId);
  // Documents written by hand belong to the knowledge base's manual source (DESIGN.md section 11 "Sources").
  const doc = await ctx.store.transaction(async (tx) => {
    const source = await manualSource(ctx, tx, kb);
    const created: KnowledgeDocument = {
      id: ctx.ids.random('doc'),
      knowledgeBaseId: kb.id,
      sourceId: source.id,
      title: input.title,
      content: input.content,
      url: input.url ?? null,
      createdAt: ctx.clock.now(),
    };
    await tx.insertDocument(created);
    return created;
  });
  ctx.onWork?.('embedding');
  return free(201, documentView(doc));
}

/** Replaces a document's content under the same id: it is chunked again, old passages are gone. */
export async function replaceDocument(ctx: EngineContext, principal: Principal, kbId: string, documentId: string, body: unknown): Promise<EngineResult<DocumentView>> {
  requireScope(principal, 'knowledge:write');
  const input = parseInput(documentRequestSchema, body);
  const kb = await ownKnowledgeBase(ctx, principal, kbId);
  const existing = await ctx.store.getDocument(kb.id, documentId);
  if (!existing) throw new SvcError('document_not_found', `Document ${documentId} was not found.`);
  const doc: KnowledgeDocument = { ...existing, title: input.title, content: input.content, url: input.url ?? null };
  await ctx.store.transaction(async (tx) => {
    await tx.deleteDocument(kb.id, documentId);
    await tx.insertDocument(doc);
  });
  ctx.onWork?.('embedding');
  return free(200, documentView(doc));
}

export async function deleteDocument(ctx: EngineContext, principal: Principal, kbId: string, documentId: string): Promise<EngineResult<Deleted>> {
  requireScope(principal, 'knowledge:write');
  const kb = await ownKnowledgeBase(ctx, principal, kbId);
  if (!(await ctx.store.deleteDocument(kb.id, documentId))) throw new SvcError('document_not_found', `Document ${documentId} was not found.`);
  return free(200, { id: documentId, deleted: true });
}

export async function listDocuments(ctx: EngineContext, principal: Principal, kbId: string, query: ListQueryInput): Promise<PageResult<DocumentView>> {
  requireAnyScope(principal, READ);
  const { limit, cursor } = parseInput(listQuerySchema, query);
  const kb = await ownKnowledgeBase(ctx, principal, kbId);
  const all = await ctx.store.listDocuments(kb.id);
  await requireCredits(ctx, principal.accountId);
  const { page, hasMore, next } = await keysetPage(ctx, `documents:${kb.id}`, all, cursor, limit);
  const creditsConsumed = await ctx.store.transaction((tx) =>
    charge(ctx, tx, { accountId: principal.accountId, operation: 'documents.list', credits: flatCredits(ctx.pricing.productsPage) }),
  );
  return { status: 200, data: page.map(documentView), pagination: { cursor: next, hasMore, total: all.length }, creditsConsumed };
}

/** The ranked passages and products retrieval returns for a query: what the agent would read. */
export async function searchKnowledge(ctx: EngineContext, principal: Principal, kbId: string, body: unknown): Promise<EngineResult<KnowledgeSearchResult>> {
  requireAnyScope(principal, READ);
  const input = parseInput(knowledgeSearchRequestSchema, body);
  const kb = await ownKnowledgeBase(ctx, principal, kbId);
  await requireCredits(ctx, principal.accountId);
  const { meters, ...data } = await searchView(ctx, kb, input);
  // The search itself, and what optional providers did for it (DESIGN.md section 11: embeddings, rerank).
  const credits = {
    ...zeroCredits(),
    retrieval: ctx.pricing.retrieval,
    embedding: round3(meters.embeddings * ctx.pricing.embedding),
    rerank: round3(meters.reranks * ctx.pricing.rerank),
  };
  const creditsConsumed = await ctx.store.transaction((tx) =>
    charge(ctx, tx, { accountId: principal.accountId, operation: 'knowledge.search', credits }),
  );
  return { status: 200, data, creditsConsumed };
}
