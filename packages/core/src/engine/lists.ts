import type { Principal } from '../domain.js';
import { flatCredits } from '../credits.js';
import { SvcError } from '../errors.js';
import { listQuerySchema, type HistoryItem } from '../schemas/message.js';
import type { ProductInput } from '../schemas/product.js';
import { parseInput } from '../schemas/validate.js';
import { loadSession, loadWidget, requireAnyScope, requireCredits, requireScope } from './access.js';
import { charge } from './billing.js';
import type { PageResult } from './context.js';
import type { EngineContext } from '../context.js';
import { historyItemView } from './views.js';

export type ListQueryInput = Record<string, string | undefined>;

/** GET …/messages (spec 4.7): oldest first, keyset-paged on the session's message sequence. */
export async function listMessages(
  ctx: EngineContext,
  principal: Principal,
  widgetId: string,
  sessionId: string,
  query: ListQueryInput,
): Promise<PageResult<HistoryItem>> {
  requireScope(principal, 'conversations:chat');
  const { limit, cursor } = parseInput(listQuerySchema, query);
  const widget = await loadWidget(ctx, principal, widgetId);
  const session = await loadSession(ctx, widget, sessionId, principal);
  const collection = `messages:${widget.id}:${session.id}`;
  const afterSeq = cursor === undefined ? 0 : await ctx.cursors.decode(collection, cursor);
  if (typeof afterSeq !== 'number') throw new SvcError('invalid_cursor', 'cursor does not belong to this list.', { field: 'cursor' });
  await requireCredits(ctx, principal.accountId);

  const rows = await ctx.store.listMessages({ widgetId: widget.id, sessionId: session.id, afterSeq, limit: limit + 1 });
  const page = rows.slice(0, limit);
  const hasMore = rows.length > limit;
  const next = hasMore ? await ctx.cursors.encode(collection, page.at(-1)!.seq) : null;
  const creditsConsumed = await ctx.store.transaction((tx) =>
    charge(ctx, tx, {
      accountId: principal.accountId,
      operation: 'messages.list',
      credits: flatCredits(ctx.pricing.historyPage),
      widgetId: widget.id,
      sessionId: session.id,
    }),
  );
  return { status: 200, data: page.map((m) => historyItemView(m, { format: principal.replyFormat, formatReply: ctx.formatReply })), pagination: { cursor: next, hasMore }, creditsConsumed };
}

/** GET /knowledge-bases/{kbId}/products (spec 4.8): ordered by product id, with `total`. */
export async function listProducts(
  ctx: EngineContext,
  principal: Principal,
  knowledgeBaseId: string,
  query: ListQueryInput,
): Promise<PageResult<ProductInput>> {
  requireAnyScope(principal, ['knowledge:read', 'knowledge:write']);
  const { limit, cursor } = parseInput(listQuerySchema, query);
  const kb = await ctx.store.getKnowledgeBase(knowledgeBaseId);
  // Another account's knowledge base is reported missing, not forbidden: ids of other tenants cannot be probed.
  if (!kb || kb.accountId !== principal.accountId) {
    throw new SvcError('knowledge_base_not_found', `Knowledge base ${knowledgeBaseId} was not found.`);
  }
  const collection = `products:${kb.id}`;
  const afterId = cursor === undefined ? undefined : await ctx.cursors.decode(collection, cursor);
  if (afterId !== undefined && typeof afterId !== 'string') {
    throw new SvcError('invalid_cursor', 'cursor does not belong to this list.', { field: 'cursor' });
  }
  await requireCredits(ctx, principal.accountId);

  const [rows, total] = await Promise.all([
    ctx.store.listProducts({ knowledgeBaseId: kb.id, ...(afterId === undefined ? {} : { afterId }), limit: limit + 1 }),
    ctx.store.countProducts(kb.id),
  ]);
  const page = rows.slice(0, limit);
  const hasMore = rows.length > limit;
  const next = hasMore ? await ctx.cursors.encode(collection, page.at(-1)!.id) : null;
  const creditsConsumed = await ctx.store.transaction((tx) =>
    charge(ctx, tx, { accountId: principal.accountId, operation: 'products.list', credits: flatCredits(ctx.pricing.productsPage) }),
  );
  return { status: 200, data: page, pagination: { cursor: next, hasMore, total }, creditsConsumed };
}
