import type { AgentRequest, KnowledgeHits, StoreOps } from '@svc/core/store-kit';
import { tool } from 'ai';
import { z } from 'zod';
import { abortable } from '../abort.js';
import type { TurnLog } from './turn-log.js';

export interface KnowledgeToolsInput {
  request: AgentRequest;
  knowledge: Pick<StoreOps, 'searchKnowledge'>;
  /** Passages or products per search. */
  limit: number;
  log: TurnLog;
}

const QUERY_INPUT = z.object({
  query: z.string().min(1).describe('Key words of what to look up, in the language of the knowledge, e.g. "shipping Canada".'),
});

/**
 * `search_knowledge` and `search_products` over the widget's knowledge bases. Two tools rather than one: the
 * model asks for what it needs, and only products it asked for become product cards in the reply.
 */
export function createKnowledgeTools(input: KnowledgeToolsInput) {
  const { request, log } = input;

  // The store query cannot be cancelled; `abortable` lets the turn reject at once when the caller gives up.
  async function search(query: string): Promise<KnowledgeHits> {
    const hits = await abortable(
      input.knowledge.searchKnowledge({
        knowledgeBaseIds: request.widget.knowledgeBaseIds,
        text: query,
        language: request.language,
        limit: input.limit,
      }),
      request.signal,
    );
    log.retrievals += 1;
    return hits;
  }

  return {
    searchKnowledge: tool({
      description:
        "Searches the site's help articles and documents. Returns the best matching passages with their title and url. Use it before answering any question about the business, its policies or services.",
      inputSchema: QUERY_INPUT,
      execute: async ({ query }) => {
        const hits = await search(query);
        return { passages: hits.passages.map(({ title, url, content }) => ({ title, url, content })) };
      },
    }),
    searchProducts: tool({
      description:
        'Searches the product catalogue. Returns matching products with id, name, price, currency, description and url. The products you find are shown to the visitor as cards under your reply.',
      inputSchema: QUERY_INPUT,
      execute: async ({ query }) => {
        const hits = await search(query);
        const products = hits.products.map((hit) => hit.product);
        for (const product of products) {
          if (!log.products.has(product.id)) log.products.set(product.id, product);
        }
        return { products };
      },
    }),
  };
}
