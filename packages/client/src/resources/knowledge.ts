import { knowledgeBasePath } from '../paths.js';
import type { Transport } from '../transport.js';
import type { ApiResponse, KnowledgeSearchBody, KnowledgeSearchResult, PostOptions } from '../types.js';

/** Searching a knowledge base the way the AI's retrieval does; needs `knowledge:read` or `knowledge:write`. */
export interface KnowledgeResource {
  /**
   * The ranked passages and products the AI would read for `query`, best first (up to `limit`, default 5, of
   * each). Billed as a retrieval.
   *
   * @example
   * const { data } = await client.knowledge.search('kb_123', { query: 'Do you ship to Canada?' });
   * console.log(data.passages[0]?.content, data.products.map((p) => p.name));
   */
  search(knowledgeBaseId: string, body: KnowledgeSearchBody, options?: PostOptions): Promise<ApiResponse<KnowledgeSearchResult>>;
}

export function createKnowledgeResource(transport: Transport): KnowledgeResource {
  return { search: (knowledgeBaseId, body, options) => transport.post(`${knowledgeBasePath(knowledgeBaseId)}/search`, body, options) };
}
