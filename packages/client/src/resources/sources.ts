import { paginate } from '../paginate.js';
import { knowledgeBasePath, segment } from '../paths.js';
import type { Transport } from '../transport.js';
import type { ApiResponse, CallOptions, CreateSourceBody, Deleted, ListQuery, PageResponse, PostOptions, Source, SourceDetail } from '../types.js';

/** A file to upload: its bytes and the name it goes by (the name breaks ties such as Markdown vs plain text). */
export interface UploadFile {
  /** A `File` (its own name is used when `name` is absent), a `Blob`, or bytes. */
  data: Blob | Uint8Array | ArrayBuffer;
  name?: string;
}

/**
 * A knowledge base's sources (DESIGN.md section 11): websites crawled and kept in sync, uploaded files, and the
 * documents added by hand. Writes need `knowledge:write`, reads `knowledge:read` or `knowledge:write`.
 */
export interface SourcesResource {
  /**
   * Adds a website to crawl (201, status `queued`); poll `get` for its progress.
   *
   * @example
   * const { data: source } = await client.sources.add('kb_123', { type: 'website', url: 'https://help.example.com/', schedule: 'weekly' });
   */
  add(knowledgeBaseId: string, body: CreateSourceBody, options?: PostOptions): Promise<ApiResponse<Source, 201>>;
  /**
   * One page of sources, oldest first.
   *
   * @example
   * const { data } = await client.sources.list('kb_123');
   */
  list(knowledgeBaseId: string, query?: ListQuery, options?: CallOptions): Promise<PageResponse<Source>>;
  /** Walks every source of a knowledge base. */
  iterate(knowledgeBaseId: string, query?: ListQuery, options?: CallOptions): AsyncGenerator<Source, void, undefined>;
  /**
   * A source with its status, progress and the pages its last sync could not read.
   *
   * @example
   * const { data } = await client.sources.get('kb_123', 'src_456');
   * console.log(data.status, data.progress.fetched, data.failedPages);
   */
  get(knowledgeBaseId: string, sourceId: string, options?: CallOptions): Promise<ApiResponse<SourceDetail>>;
  /**
   * Queues a sync of a website source now (202); a sync already queued or running is answered as it is.
   *
   * @example
   * await client.sources.sync('kb_123', 'src_456');
   */
  sync(knowledgeBaseId: string, sourceId: string, options?: PostOptions): Promise<ApiResponse<Source, 202>>;
  /**
   * Deletes a source with its documents and products.
   *
   * @example
   * await client.sources.delete('kb_123', 'src_456');
   */
  delete(knowledgeBaseId: string, sourceId: string, options?: CallOptions): Promise<ApiResponse<Deleted>>;
  /**
   * Uploads a file (PDF, DOCX, HTML, Markdown, plain text; CSV or JSON products; at most 20 MB) as a `file`
   * source: 201, `ready`, or `failed` with `lastSync.error` when it could not be read.
   *
   * @example
   * const bytes = await readFile('returns.pdf');
   * const { data: source } = await client.sources.upload('kb_123', { data: bytes, name: 'returns.pdf' });
   */
  upload(knowledgeBaseId: string, file: UploadFile, options?: PostOptions): Promise<ApiResponse<Source, 201>>;
}

export function createSourcesResource(transport: Transport): SourcesResource {
  const sources = (knowledgeBaseId: string): string => `${knowledgeBasePath(knowledgeBaseId)}/sources`;
  const source = (knowledgeBaseId: string, sourceId: string): string => `${sources(knowledgeBaseId)}/${segment('sourceId', sourceId)}`;
  const list: SourcesResource['list'] = (knowledgeBaseId, query = {}, options) => transport.get(sources(knowledgeBaseId), options, query);
  return {
    add: (knowledgeBaseId, body, options) => transport.post(sources(knowledgeBaseId), body, options),
    list,
    iterate: (knowledgeBaseId, query, options) => paginate((page) => list(knowledgeBaseId, page, options), query),
    get: (knowledgeBaseId, sourceId, options) => transport.get(source(knowledgeBaseId, sourceId), options),
    sync: (knowledgeBaseId, sourceId, options) => transport.post(`${source(knowledgeBaseId, sourceId)}/sync`, undefined, options),
    delete: (knowledgeBaseId, sourceId, options) => transport.delete(source(knowledgeBaseId, sourceId), options),
    upload(knowledgeBaseId, { data, name }, options) {
      // A Blob, bytes or a buffer are all a Blob's parts; a File keeps its own name unless one is given. A retried
      // attempt sends the same form (the server knows a repeat by its file, not by its multipart boundary).
      const form = new FormData();
      form.append('file', new Blob([data as BlobPart]), name ?? (data as File).name ?? 'file');
      return transport.post(`${knowledgeBasePath(knowledgeBaseId)}/files`, form, options);
    },
  };
}
