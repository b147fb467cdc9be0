import { createSourceRequestSchema } from '@svc/core/schemas';
import { SvcError, type UploadedFile } from '@svc/core';
import { extractFile, UnsupportedFileError } from '../ingest/files.js';
import { RESPONSE_SCHEMAS as R } from '../openapi/components.js';
import { JSON_POST, KEYED, KNOWLEDGE_READ, KNOWLEDGE_WRITE, PAGE, PATH_IDS } from './route-kit.js';
import type { Route } from './routes.js';
import { MAX_UPLOAD_BYTES, type UploadedPart } from './upload.js';

/** Knowledge sources (DESIGN.md section 11 "Sources"): websites kept in sync, and uploaded files. */

const SOURCE = ['knowledge_base_not_found', 'source_not_found'] as const;

/**
 * What core is given for an upload: the file's text or products as the ingest adapter read them. Bytes of none of
 * the supported types are a 415; a file of a supported type that cannot be read becomes a `failed` source in core.
 */
export async function extractUpload(part: UploadedPart): Promise<UploadedFile> {
  try {
    return { name: part.name, bytes: part.bytes.byteLength, extracted: await extractFile(part.bytes, part.name) };
  } catch (error) {
    if (error instanceof UnsupportedFileError) throw new SvcError('unsupported_media_type', error.message);
    throw error;
  }
}

export const SOURCE_ROUTES: readonly Route[] = [
  {
    method: 'post',
    path: '/knowledge-bases/{kbId}/sources',
    operationId: 'addSource',
    tag: 'Knowledge bases',
    summary: 'Add a website source',
    description:
      'Adds a website to crawl (201 `queued`, with `Location`): a start URL or a sitemap, read within its host and path prefix unless `include` says otherwise, up to `maxPages` pages (default 500), again `daily` or `weekly` when `schedule` says so. Files are uploaded with `POST …/files`. Needs `knowledge:write`; each page downloaded costs one `crawler` credit (a page unchanged since the last sync is free).',
    auth: 'key',
    scopes: KNOWLEDGE_WRITE,
    body: { schema: createSourceRequestSchema, required: true },
    responses: { 201: { schema: R.SourceResponse, description: 'The new source, queued for its first sync.' } },
    errors: [...KEYED, ...JSON_POST, 'knowledge_base_not_found'],
    location: (data: { id: string }) => data.id,
    handler: ({ core, caller, params, body }) => core.api.knowledge.addSource(caller, params.kbId!, body),
  },
  {
    method: 'get',
    path: '/knowledge-bases/{kbId}/sources',
    operationId: 'listSources',
    tag: 'Knowledge bases',
    summary: "List a knowledge base's sources",
    description: 'One page of sources (websites, files and the manual documents), oldest first, with their status and progress. Needs `knowledge:read` or `knowledge:write`; free.',
    auth: 'key',
    scopes: KNOWLEDGE_READ,
    paginated: true,
    responses: { 200: { schema: R.SourcePage, description: 'A page of sources.' } },
    errors: [...KEYED, 'knowledge_base_not_found', ...PAGE],
    handler: ({ core, caller, params, query }) => core.api.knowledge.listSources(caller, params.kbId!, query),
  },
  {
    method: 'get',
    path: '/knowledge-bases/{kbId}/sources/{sourceId}',
    operationId: 'getSource',
    tag: 'Knowledge bases',
    summary: 'Read a source',
    description:
      'The source with its status (`queued`, `syncing`, `ready`, `failed`), the progress of its sync (pages found, fetched, unchanged, failed, skipped), its last sync, and the pages that sync could not read and why (at most 100). Needs `knowledge:read` or `knowledge:write`; free.',
    auth: 'key',
    scopes: KNOWLEDGE_READ,
    responses: { 200: { schema: R.SourceDetailResponse, description: 'The source and its failed pages.' } },
    errors: [...KEYED, ...PATH_IDS, ...SOURCE],
    handler: ({ core, caller, params }) => core.api.knowledge.getSource(caller, params.kbId!, params.sourceId!),
  },
  {
    method: 'post',
    path: '/knowledge-bases/{kbId}/sources/{sourceId}/sync',
    operationId: 'syncSource',
    tag: 'Knowledge bases',
    summary: 'Sync a source now',
    description:
      'Queues a sync of a website source (202): pages unchanged since the last sync keep their passages and cost nothing, changed ones are read again, pages gone from the site are removed. A sync already queued or running is answered as it is. Needs `knowledge:write`.',
    auth: 'key',
    scopes: KNOWLEDGE_WRITE,
    responses: { 202: { schema: R.SourceResponse, description: 'The source, queued (or already syncing).' } },
    errors: [...KEYED, ...PATH_IDS, 'invalid_json', 'unsupported_media_type', 'payload_too_large', 'idempotency_key_reused', ...SOURCE],
    handler: ({ core, caller, params }) => core.api.knowledge.syncSource(caller, params.kbId!, params.sourceId!),
  },
  {
    method: 'delete',
    path: '/knowledge-bases/{kbId}/sources/{sourceId}',
    operationId: 'deleteSource',
    tag: 'Knowledge bases',
    summary: 'Delete a source',
    description: 'Removes the source with its documents, passages and products; the AI no longer finds them. Deleting it again answers 404 `source_not_found`. Needs `knowledge:write`; free.',
    auth: 'key',
    scopes: KNOWLEDGE_WRITE,
    responses: { 200: { schema: R.DeletedResponse, description: 'The source was deleted.' } },
    errors: [...KEYED, ...PATH_IDS, ...SOURCE],
    handler: ({ core, caller, params }) => core.api.knowledge.deleteSource(caller, params.kbId!, params.sourceId!),
  },
  {
    method: 'post',
    path: '/knowledge-bases/{kbId}/files',
    operationId: 'uploadFile',
    tag: 'Knowledge bases',
    summary: 'Upload a file',
    description:
      'Adds a file as a `file` source (201, with `Location`): a PDF, DOCX, HTML, Markdown or plain-text document, or CSV or JSON products, sent as `multipart/form-data` in the field `file`, at most 20 MB (413 beyond). The type is read from the bytes: anything else is 415. A file that cannot be read (a damaged PDF, products that do not validate) gives a `failed` source saying why. Needs `knowledge:write`; free.',
    auth: 'key',
    scopes: KNOWLEDGE_WRITE,
    upload: { field: 'file', maxBytes: MAX_UPLOAD_BYTES },
    responses: { 201: { schema: R.SourceResponse, description: 'The file source: `ready` with its documents or products, or `failed` with `lastSync.error`.' } },
    errors: [...KEYED, ...PATH_IDS, 'validation_failed', 'payload_too_large', 'unsupported_media_type', 'idempotency_key_reused', 'knowledge_base_not_found'],
    location: (data: { id: string }) => data.id,
    handler: async ({ core, caller, params, upload }) => {
      // The knowledge base is checked before the file is read: a wrong id is a 404, whatever the file.
      await core.api.knowledge.get(caller, params.kbId!);
      return core.api.knowledge.addFile(caller, params.kbId!, await extractUpload(await upload!()));
    },
  },
];
