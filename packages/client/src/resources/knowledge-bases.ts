import { paginate } from '../paginate.js';
import { knowledgeBasePath } from '../paths.js';
import type { Transport } from '../transport.js';
import type { ApiResponse, CallOptions, CreateKnowledgeBaseBody, KnowledgeBase, KnowledgeBaseDetail, ListQuery, PageResponse, PostOptions } from '../types.js';

/** Knowledge bases (issue #3): `knowledge:write` creates them, `knowledge:read` or `knowledge:write` reads them. */
export interface KnowledgeBasesResource {
  /**
   * Creates an empty knowledge base in the key's account (201); fill it with `products` and `documents`.
   *
   * @example
   * const { data: kb } = await client.knowledgeBases.create({ name: 'Spring catalogue' });
   */
  create(body: CreateKnowledgeBaseBody, options?: PostOptions): Promise<ApiResponse<KnowledgeBase, 201>>;
  /**
   * Reads one page of the account's knowledge bases, oldest first; `pagination.total` counts them all.
   *
   * @example
   * const page = await client.knowledgeBases.list({ limit: 10 });
   */
  list(query?: ListQuery, options?: CallOptions): Promise<PageResponse<KnowledgeBase>>;
  /**
   * Walks every knowledge base of the account, fetching pages as the loop needs them.
   *
   * @example
   * for await (const kb of client.knowledgeBases.iterate()) console.log(kb.id, kb.name);
   */
  iterate(query?: ListQuery, options?: CallOptions): AsyncGenerator<KnowledgeBase, void, undefined>;
  /**
   * Reads a knowledge base with how many products and documents it holds.
   *
   * @example
   * const { data } = await client.knowledgeBases.get('kb_123');
   * console.log(`${data.products} products, ${data.documents} documents`);
   */
  get(knowledgeBaseId: string, options?: CallOptions): Promise<ApiResponse<KnowledgeBaseDetail>>;
}

export function createKnowledgeBasesResource(transport: Transport): KnowledgeBasesResource {
  const list: KnowledgeBasesResource['list'] = (query = {}, options) => transport.get('/knowledge-bases', options, query);
  return {
    create: (body, options) => transport.post('/knowledge-bases', body, options),
    list,
    iterate: (query, options) => paginate((page) => list(page, options), query),
    get: (knowledgeBaseId, options) => transport.get(knowledgeBasePath(knowledgeBaseId), options),
  };
}
