import type { AgentRequest, KnowledgeRetriever, Retrieval } from '@svc/core/store-kit';
import { tool } from 'ai';
import { z } from 'zod';
import { abortable } from '../abort.js';
import type { TurnLog } from './turn-log.js';

export interface KnowledgeToolsInput {
  request: AgentRequest;
  knowledge: KnowledgeRetriever;
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

  const threshold = request.widget.confidenceThreshold;

  // The store query cannot be cancelled; `abortable` lets the turn reject at once when the caller gives up.
  async function search(query: string): Promise<Retrieval> {
    const found = await abortable(
      input.knowledge.retrieve({
        knowledgeBaseIds: request.widget.knowledgeBaseIds,
        text: query,
        language: request.language,
        limit: input.limit,
        signal: request.signal,
      }),
      request.signal,
    );
    log.retrievals += found.meters.retrievals;
    log.embeddings += found.meters.embeddings;
    log.reranks += found.meters.reranks;
    return found;
  }

  return {
    searchKnowledge: tool({
      description:
        "Searches the site's help articles and documents. Returns the best matching passages with their title, url and confidence (0-1), and whether any reaches the site's threshold (`answerable`). Use it before answering any question about the business, its policies or services. When `answerable` is false the passages do not answer the question: say you do not know.",
      inputSchema: QUERY_INPUT,
      execute: async ({ query }) => {
        const found = await search(query);
        log.confidence = Math.max(log.confidence ?? 0, found.confidence);
        const confident = found.passages.filter((passage) => passage.confidence >= threshold);
        for (const { documentId, title, url } of confident) if (!log.sources.has(documentId)) log.sources.set(documentId, { documentId, title, url });
        // The model sees the confidence and the rule (DESIGN.md section 11): below the threshold a passage is only
        // loosely related, and answering from it would be a guess.
        return {
          confidence: found.confidence,
          threshold,
          answerable: confident.length > 0,
          passages: found.passages.map(({ title, url, content, confidence }) => ({ title, url, content, confidence })),
        };
      },
    }),
    searchProducts: tool({
      description:
        'Searches the product catalogue. Returns matching products with id, name, price, currency, description and url. The products you find are shown to the visitor as cards under your reply.',
      inputSchema: QUERY_INPUT,
      execute: async ({ query }) => {
        const found = await search(query);
        const products = found.products.map((hit) => hit.product);
        for (const product of products) {
          if (!log.products.has(product.id)) log.products.set(product.id, product);
        }
        return { products };
      },
    }),
  };
}
