import { paginate } from '../paginate.js';
import { knowledgeBasePath, segment } from '../paths.js';
import type { Transport } from '../transport.js';
import type { ApiResponse, CallOptions, Deleted, ListQuery, PageResponse, PostOptions, Product, ProductBody, UpsertedProducts, UpsertProductsBody } from '../types.js';

/**
 * Knowledge-base products (spec 4.8). Reading needs a key with `knowledge:read` or `knowledge:write`; writing
 * needs `knowledge:write`.
 */
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
  /**
   * Writes one product under `productId`, replacing it whole if it exists; resolves to the product as stored.
   *
   * @example
   * await client.products.put('kb_123', 'tent-2p', { name: 'Trail Tent 2P', price: 249, currency: 'EUR' });
   */
  put(knowledgeBaseId: string, productId: string, body: ProductBody, options?: CallOptions): Promise<ApiResponse<Product>>;
  /**
   * Adds or replaces 1-1000 products by id in one request; an id may appear once. Nothing is written when any
   * product is refused (400 naming it, e.g. `products.3.price`).
   *
   * @example
   * const { data } = await client.products.upsert('kb_123', { products: catalogue }, { idempotencyKey: 'sync-2026-11-21' });
   * console.log(data.upserted);
   */
  upsert(knowledgeBaseId: string, body: UpsertProductsBody, options?: PostOptions): Promise<ApiResponse<UpsertedProducts>>;
  /**
   * Deletes a product. A product already gone is a 404 `product_not_found`, also when a retried delete follows
   * one whose response was lost.
   *
   * @example
   * await client.products.delete('kb_123', 'tent-2p');
   */
  delete(knowledgeBaseId: string, productId: string, options?: CallOptions): Promise<ApiResponse<Deleted>>;
}

export function createProductsResource(transport: Transport): ProductsResource {
  const products = (knowledgeBaseId: string): string => `${knowledgeBasePath(knowledgeBaseId)}/products`;
  const product = (knowledgeBaseId: string, productId: string): string => `${products(knowledgeBaseId)}/${segment('productId', productId)}`;
  const list: ProductsResource['list'] = (knowledgeBaseId, query = {}, options) => transport.get(products(knowledgeBaseId), options, query);
  return {
    list,
    iterate: (knowledgeBaseId, query, options) => paginate((page) => list(knowledgeBaseId, page, options), query),
    put: (knowledgeBaseId, productId, body, options) => transport.put(product(knowledgeBaseId, productId), body, options),
    upsert: (knowledgeBaseId, body, options) => transport.post(products(knowledgeBaseId), body, options),
    delete: (knowledgeBaseId, productId, options) => transport.delete(product(knowledgeBaseId, productId), options),
  };
}
