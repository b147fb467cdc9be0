import { paginate } from '../paginate.js';
import { segment } from '../paths.js';
import type { Transport } from '../transport.js';
import type { CallOptions, ListQuery, PageResponse, Product } from '../types.js';

/** Knowledge-base products (spec 4.8); needs a key with `knowledge:read` or `knowledge:write`. */
export interface ProductsResource {
  /**
   * Reads one page of a knowledge base's products, ordered by id; `pagination.total` counts them all.
   *
   * @example
   * const page = await client.products.list('kb_123', { limit: 10 });
   * console.log(`${page.data.length} of ${page.pagination.total}`);
   */
  list(knowledgeBaseId: string, query?: ListQuery, options?: CallOptions): Promise<PageResponse<Product>>;
  /**
   * Walks every product of a knowledge base, fetching pages as the loop needs them.
   *
   * @example
   * for await (const product of client.products.iterate('kb_123')) console.log(product.name, product.price);
   */
  iterate(knowledgeBaseId: string, query?: ListQuery, options?: CallOptions): AsyncGenerator<Product, void, undefined>;
}

export function createProductsResource(transport: Transport): ProductsResource {
  const list: ProductsResource['list'] = (knowledgeBaseId, query = {}, options) =>
    transport.get(`/knowledge-bases/${segment('knowledgeBaseId', knowledgeBaseId)}/products`, options, query);
  return { list, iterate: (knowledgeBaseId, query, options) => paginate((page) => list(knowledgeBaseId, page, options), query) };
}
