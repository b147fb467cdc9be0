import { paginate } from '../paginate.js';
import { knowledgeBasePath, segment } from '../paths.js';
import type { Transport } from '../transport.js';
import type { ApiResponse, CallOptions, Deleted, DocumentBody, KnowledgeDocument, ListQuery, PageResponse, PostOptions } from '../types.js';

/** A knowledge base's documents: text the AI answers from, split into passages. Writes need `knowledge:write`. */
export interface DocumentsResource {
  /**
   * Adds a document (201); the AI answers from it at once. The response carries no content.
   *
   * @example
   * const { data: doc } = await client.documents.add('kb_123', {
   *   title: 'Shipping',
   *   content: '# Shipping\n\nWe ship to Canada in 5-7 days.',
   *   url: 'https://shop.example/shipping',
   * });
   */
  add(knowledgeBaseId: string, body: DocumentBody, options?: PostOptions): Promise<ApiResponse<KnowledgeDocument, 201>>;
  /**
   * Replaces a document's title, content and url under the same id; its old passages are gone at once.
   *
   * @example
   * await client.documents.replace('kb_123', 'doc_456', { title: 'Shipping', content: 'We ship worldwide.' });
   */
  replace(knowledgeBaseId: string, documentId: string, body: DocumentBody, options?: CallOptions): Promise<ApiResponse<KnowledgeDocument>>;
  /**
   * Deletes a document and its passages. A document already gone is a 404 `document_not_found`, also when a
   * retried delete follows one whose response was lost.
   *
   * @example
   * await client.documents.delete('kb_123', 'doc_456');
   */
  delete(knowledgeBaseId: string, documentId: string, options?: CallOptions): Promise<ApiResponse<Deleted>>;
  /**
   * Reads one page of a knowledge base's documents, oldest first; `pagination.total` counts them all.
   *
   * @example
   * const page = await client.documents.list('kb_123', { limit: 20 });
   */
  list(knowledgeBaseId: string, query?: ListQuery, options?: CallOptions): Promise<PageResponse<KnowledgeDocument>>;
  /**
   * Walks every document of a knowledge base, fetching pages as the loop needs them.
   *
   * @example
   * for await (const doc of client.documents.iterate('kb_123')) console.log(doc.id, doc.title);
   */
  iterate(knowledgeBaseId: string, query?: ListQuery, options?: CallOptions): AsyncGenerator<KnowledgeDocument, void, undefined>;
}

export function createDocumentsResource(transport: Transport): DocumentsResource {
  const documents = (knowledgeBaseId: string): string => `${knowledgeBasePath(knowledgeBaseId)}/documents`;
  const document = (knowledgeBaseId: string, documentId: string): string => `${documents(knowledgeBaseId)}/${segment('documentId', documentId)}`;
  const list: DocumentsResource['list'] = (knowledgeBaseId, query = {}, options) => transport.get(documents(knowledgeBaseId), options, query);
  return {
    add: (knowledgeBaseId, body, options) => transport.post(documents(knowledgeBaseId), body, options),
    replace: (knowledgeBaseId, documentId, body, options) => transport.put(document(knowledgeBaseId, documentId), body, options),
    delete: (knowledgeBaseId, documentId, options) => transport.delete(document(knowledgeBaseId, documentId), options),
    list,
    iterate: (knowledgeBaseId, query, options) => paginate((page) => list(knowledgeBaseId, page, options), query),
  };
}
