import type { KnowledgeBase, Principal } from '../domain.js';
import { SvcError } from '../errors.js';
import type { Deleted } from '../schemas/knowledge.js';
import { listQuerySchema } from '../schemas/message.js';
import type { SourceDetail, SourceView } from '../schemas/sources.js';
import { parseInput } from '../schemas/validate.js';
import type { UploadedFile } from '../sources/site-reader.js';
import { createFileSource, createWebsiteSource, listSourceViews, removeSource, requestSync, sourceDetail } from '../sources/sources.js';
import type { EngineContext } from '../context.js';
import { requireAnyScope, requireScope } from './access.js';
import type { EngineResult, PageResult } from './context.js';
import type { ListQueryInput } from './lists.js';

/**
 * Knowledge sources over the public API (DESIGN.md section 11 "Sources"): `knowledge:write` writes, reads take
 * `knowledge:read` or `knowledge:write`. Management calls are free; the crawl's reads are billed by the sync job.
 * Another account's knowledge base is reported missing.
 */

const READ = ['knowledge:read', 'knowledge:write'] as const;

async function ownKnowledgeBase(ctx: EngineContext, principal: Principal, id: string): Promise<KnowledgeBase> {
  const kb = await ctx.store.getKnowledgeBase(id);
  if (!kb || kb.accountId !== principal.accountId) throw new SvcError('knowledge_base_not_found', `Knowledge base ${id} was not found.`);
  return kb;
}

const free = <T>(status: 200 | 201 | 202, data: T): EngineResult<T> => ({ status, data, creditsConsumed: 0 });

export async function addSource(ctx: EngineContext, principal: Principal, target: { kbId: string; body: unknown }): Promise<EngineResult<SourceView>> {
  requireScope(principal, 'knowledge:write');
  const kb = await ownKnowledgeBase(ctx, principal, target.kbId);
  return free(201, await createWebsiteSource(ctx, kb, target.body));
}

/** Oldest first; a knowledge base holds few sources, so a page is an offset into them. */
export async function listSources(ctx: EngineContext, principal: Principal, target: { kbId: string; query: ListQueryInput }): Promise<PageResult<SourceView>> {
  requireAnyScope(principal, READ);
  const { limit, cursor } = parseInput(listQuerySchema, target.query);
  const kb = await ownKnowledgeBase(ctx, principal, target.kbId);
  const all = await listSourceViews(ctx.store, kb);
  let start = 0;
  if (cursor !== undefined) {
    const after = await ctx.cursors.decode(`sources:${kb.id}`, cursor);
    if (typeof after !== 'string') throw new SvcError('invalid_cursor', 'cursor does not belong to this list.', { field: 'cursor' });
    // Keyset on (createdAt, id): sources deleted between pages do not shift the next one.
    start = all.findIndex((source) => `${source.createdAt}|${source.id}` > after);
    if (start < 0) start = all.length;
  }
  const page = all.slice(start, start + limit);
  const hasMore = start + limit < all.length;
  const last = page.at(-1);
  const next = hasMore && last ? await ctx.cursors.encode(`sources:${kb.id}`, `${last.createdAt}|${last.id}`) : null;
  return { status: 200, data: page, pagination: { cursor: next, hasMore, total: all.length }, creditsConsumed: 0 };
}

export async function getSource(ctx: EngineContext, principal: Principal, target: { kbId: string; sourceId: string }): Promise<EngineResult<SourceDetail>> {
  requireAnyScope(principal, READ);
  const kb = await ownKnowledgeBase(ctx, principal, target.kbId);
  return free(200, await sourceDetail(ctx.store, kb, target.sourceId));
}

export async function syncSource(ctx: EngineContext, principal: Principal, target: { kbId: string; sourceId: string }): Promise<EngineResult<SourceView>> {
  requireScope(principal, 'knowledge:write');
  const kb = await ownKnowledgeBase(ctx, principal, target.kbId);
  return free(202, await requestSync(ctx, kb, target.sourceId));
}

export async function deleteSource(ctx: EngineContext, principal: Principal, target: { kbId: string; sourceId: string }): Promise<EngineResult<Deleted>> {
  requireScope(principal, 'knowledge:write');
  const kb = await ownKnowledgeBase(ctx, principal, target.kbId);
  return free(200, await removeSource(ctx, kb, target.sourceId));
}

export async function addFile(ctx: EngineContext, principal: Principal, target: { kbId: string; file: UploadedFile }): Promise<EngineResult<SourceView>> {
  requireScope(principal, 'knowledge:write');
  const kb = await ownKnowledgeBase(ctx, principal, target.kbId);
  return free(201, await createFileSource(ctx, kb, target.file));
}
