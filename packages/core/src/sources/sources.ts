import type { Clock } from '../clock.js';
import type { KnowledgeBase, KnowledgeDocument, KnowledgeSource, SourceProgress } from '../domain.js';
import { SvcError } from '../errors.js';
import type { Ids } from '../ids.js';
import { productSchema, type ProductInput } from '../schemas/product.js';
import { createSourceRequestSchema, DEFAULT_MAX_PAGES, type SourceDetail, type SourceView } from '../schemas/sources.js';
import { parseInput } from '../schemas/validate.js';
import type { Store, StoreOps } from '../store/store.js';
import type { SiteReader, UploadedFile } from './site-reader.js';

/**
 * Knowledge sources (DESIGN.md section 11 "Sources"), the operations the public API and the console share: each
 * takes a knowledge base its caller may use. Creating and deleting are free; a website's reads are billed by the sync
 * job (sync-job.ts).
 */

export interface SourceContext {
  store: Store;
  clock: Clock;
  ids: Ids;
  reader?: SiteReader | undefined;
  onWork?: ((kind: 'delivery' | 'embedding' | 'source') => void) | undefined;
}

/** The most characters a document holds (as `…/documents` accepts): longer texts are stored in parts. */
export const DOCUMENT_CHARS = 60_000;
const TITLE_CHARS = 300;

export const zeroProgress = (): SourceProgress => ({ found: 0, fetched: 0, unchanged: 0, failed: 0, skipped: 0 });

export function sourceView(source: KnowledgeSource, documents: number): SourceView {
  return {
    id: source.id,
    knowledgeBaseId: source.knowledgeBaseId,
    type: source.type,
    url: source.url,
    fileName: source.fileName,
    include: [...source.include],
    exclude: [...source.exclude],
    maxPages: source.maxPages,
    schedule: source.schedule,
    status: source.status,
    progress: { ...source.progress },
    documents,
    lastSync: source.lastSync
      ? { startedAt: source.lastSync.startedAt.toISOString(), finishedAt: source.lastSync.finishedAt?.toISOString() ?? null, error: source.lastSync.error }
      : null,
    nextSyncAt: source.nextSyncAt?.toISOString() ?? null,
    createdAt: source.createdAt.toISOString(),
  };
}

function blankSource(ctx: Pick<SourceContext, 'clock' | 'ids'>, kb: KnowledgeBase, type: KnowledgeSource['type']): KnowledgeSource {
  return {
    id: ctx.ids.random('src'),
    knowledgeBaseId: kb.id,
    accountId: kb.accountId,
    type,
    url: null,
    fileName: null,
    include: [],
    exclude: [],
    maxPages: null,
    schedule: 'off',
    status: 'ready',
    progress: zeroProgress(),
    lastSync: null,
    nextSyncAt: null,
    generation: 0,
    lease: null,
    createdAt: ctx.clock.now(),
  };
}

/** The knowledge base's manual source (the documents API's), made on first use. */
export async function manualSource(ctx: Pick<SourceContext, 'clock' | 'ids'>, tx: StoreOps, kb: KnowledgeBase): Promise<KnowledgeSource> {
  return tx.ensureManualSource(blankSource(ctx, kb, 'manual'));
}

export async function loadSource(store: StoreOps, kb: KnowledgeBase, sourceId: string): Promise<KnowledgeSource> {
  const source = await store.getSource(kb.id, sourceId);
  if (!source) throw new SvcError('source_not_found', `Source ${sourceId} was not found.`);
  return source;
}

/** A website source, queued for its first sync. */
export async function createWebsiteSource(ctx: SourceContext, kb: KnowledgeBase, body: unknown): Promise<SourceView> {
  const type = typeof body === 'object' && body !== null ? (body as { type?: unknown }).type : undefined;
  if (type === 'file') throw new SvcError('validation_failed', 'type "file": upload files with POST /knowledge-bases/{kbId}/files.', { field: 'type' });
  if (type === 'manual') throw new SvcError('validation_failed', 'type "manual": manual documents are added with POST /knowledge-bases/{kbId}/documents.', { field: 'type' });
  const input = parseInput(createSourceRequestSchema, body);
  if (!ctx.reader) throw new SvcError('validation_failed', 'website sources need a site reader, and this server has none.', { field: 'type' });
  const source: KnowledgeSource = {
    ...blankSource(ctx, kb, 'website'),
    url: input.url,
    include: input.include ?? [],
    exclude: input.exclude ?? [],
    maxPages: input.maxPages ?? DEFAULT_MAX_PAGES,
    schedule: input.schedule ?? 'off',
    status: 'queued',
  };
  await ctx.store.insertSource(source);
  ctx.onWork?.('source');
  return sourceView(source, 0);
}

export async function listSourceViews(store: StoreOps, kb: KnowledgeBase): Promise<SourceView[]> {
  const [sources, counts] = await Promise.all([store.listSources(kb.id), store.countSourceDocuments(kb.id)]);
  return sources.map((source) => sourceView(source, counts[source.id] ?? 0));
}

/** The source with the pages its last sync could not read (at most 100). */
export async function sourceDetail(store: StoreOps, kb: KnowledgeBase, sourceId: string): Promise<SourceDetail> {
  const source = await loadSource(store, kb, sourceId);
  const [counts, failed] = await Promise.all([
    store.countSourceDocuments(kb.id),
    source.type === 'website' ? store.listSourcePages({ sourceId, state: 'failed', generation: source.generation, limit: 100 }) : [],
  ]);
  return {
    ...sourceView(source, counts[source.id] ?? 0),
    failedPages: failed.map((page) => ({ url: page.url, status: page.status, reason: page.error ?? 'unreadable' })),
  };
}

/** Queues a website's sync; one queued or running already is returned as it is. */
export async function requestSync(ctx: SourceContext, kb: KnowledgeBase, sourceId: string): Promise<SourceView> {
  const source = await loadSource(ctx.store, kb, sourceId);
  if (source.type !== 'website') {
    throw new SvcError('validation_failed', `Source ${sourceId} is a ${source.type} source: only website sources sync.`, { field: 'sourceId' });
  }
  if (!ctx.reader) throw new SvcError('validation_failed', 'website sources need a site reader, and this server has none.', { field: 'sourceId' });
  let current = source;
  if (source.status !== 'queued' && source.status !== 'syncing') {
    current = (await ctx.store.updateSource({ id: source.id, patch: { status: 'queued' } })) ?? source;
    ctx.onWork?.('source');
  }
  const counts = await ctx.store.countSourceDocuments(kb.id);
  return sourceView(current, counts[source.id] ?? 0);
}

export async function removeSource(ctx: SourceContext, kb: KnowledgeBase, sourceId: string): Promise<{ id: string; deleted: true }> {
  if (!(await ctx.store.deleteSource(kb.id, sourceId))) throw new SvcError('source_not_found', `Source ${sourceId} was not found.`);
  return { id: sourceId, deleted: true };
}

/** A text as documents of at most {@link DOCUMENT_CHARS} characters, split between paragraphs where it can be. */
export function documentParts(title: string, text: string): Array<{ title: string; content: string }> {
  const parts: string[] = [];
  let current = '';
  for (const paragraph of text.split(/\n{2,}/)) {
    const candidate = current === '' ? paragraph : `${current}\n\n${paragraph}`;
    if (candidate.length <= DOCUMENT_CHARS) {
      current = candidate;
      continue;
    }
    if (current !== '') parts.push(current);
    let rest = paragraph;
    while (rest.length > DOCUMENT_CHARS) {
      parts.push(rest.slice(0, DOCUMENT_CHARS));
      rest = rest.slice(DOCUMENT_CHARS);
    }
    current = rest;
  }
  if (current.trim() !== '') parts.push(current);
  const base = (title.trim() || 'Untitled').slice(0, TITLE_CHARS);
  return parts.map((content, index) => ({ title: index === 0 ? base : `${base.slice(0, TITLE_CHARS - 12)} (part ${index + 1})`, content }));
}

/** The documents of one extracted text, ready to insert. */
export function sourceDocuments(
  ctx: Pick<SourceContext, 'clock' | 'ids'>,
  input: { source: KnowledgeSource; title: string; text: string; url: string | null; ids?: readonly string[] },
): KnowledgeDocument[] {
  const now = ctx.clock.now();
  return documentParts(input.title, input.text).map((part, index) => ({
    id: input.ids?.[index] ?? ctx.ids.random('doc'),
    knowledgeBaseId: input.source.knowledgeBaseId,
    sourceId: input.source.id,
    title: part.title,
    content: part.content,
    url: input.url,
    createdAt: now,
  }));
}

/**
 * An upload as a `file` source: its documents or products stored with it, `ready`; or, when the adapter could not
 * extract it or its products are invalid, `failed` with the reason and nothing stored.
 */
export async function createFileSource(ctx: SourceContext, kb: KnowledgeBase, file: UploadedFile): Promise<SourceView> {
  const now = ctx.clock.now();
  const base: KnowledgeSource = { ...blankSource(ctx, kb, 'file'), fileName: file.name.slice(0, 300) || 'upload' };
  const failed = (error: string): KnowledgeSource => ({ ...base, status: 'failed', progress: { ...zeroProgress(), failed: 1 }, lastSync: { startedAt: now, finishedAt: now, error } });
  const extracted = file.extracted;
  if (extracted.kind === 'failed') {
    await ctx.store.insertSource(failed(extracted.error));
    return sourceView(failed(extracted.error), 0);
  }
  const done = (count: number): KnowledgeSource => ({ ...base, progress: { ...zeroProgress(), found: count, fetched: count }, lastSync: { startedAt: now, finishedAt: now, error: null } });
  if (extracted.kind === 'products') {
    const products: ProductInput[] = [];
    for (const [index, row] of extracted.products.entries()) {
      const parsed = productSchema.safeParse(row);
      if (!parsed.success) {
        const issue = parsed.error.issues[0]!;
        const source = failed(`product ${index + 1}${issue.path.length > 0 ? ` (${issue.path.join('.')})` : ''}: ${issue.message}`);
        await ctx.store.insertSource(source);
        return sourceView(source, 0);
      }
      products.push(parsed.data);
    }
    const source = done(products.length);
    await ctx.store.transaction(async (tx) => {
      await tx.insertSource(source);
      if (products.length > 0) await tx.upsertProducts(kb.id, products, source.id);
    });
    return sourceView(source, 0);
  }
  const source = done(extracted.documents.length);
  const documents = extracted.documents.flatMap((doc) => sourceDocuments(ctx, { source, title: doc.title || base.fileName!, text: doc.content, url: null }));
  await ctx.store.transaction(async (tx) => {
    await tx.insertSource(source);
    for (const document of documents) await tx.insertDocument(document);
  });
  if (documents.length > 0) ctx.onWork?.('embedding');
  return sourceView(source, documents.length);
}
