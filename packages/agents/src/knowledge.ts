import { createRetriever, type KnowledgeRetriever, type StoreOps } from '@svc/core/store-kit';

/** What an agent reads knowledge through: the service's retrieval, or a store searched with full text alone. */
export type Knowledge = KnowledgeRetriever | Pick<StoreOps, 'searchKnowledge'>;

/** The retrieval of `knowledge`: itself, or full-text retrieval over the store given. */
export function retrieverOf(knowledge: Knowledge): KnowledgeRetriever {
  return 'retrieve' in knowledge ? knowledge : createRetriever({ store: knowledge });
}
