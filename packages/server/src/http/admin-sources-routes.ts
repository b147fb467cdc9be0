import { createSourceRequestSchema, deletedSchema, envelope, sourceDetailSchema, sourceSchema } from '@svc/core/schemas';
import type { ErrorCode } from '@svc/core';
import { z } from 'zod';
import { ADMIN, BODY, ok, V1 } from './admin-route-kit.js';
import type { Route, RouteSpec } from './routes.js';
import { extractUpload } from './sources-routes.js';
import { MAX_UPLOAD_BYTES } from './upload.js';

/**
 * The console's knowledge sources (DESIGN.md section 11 "Sources"): the public API's source routes, on the operator's
 * own account and free, translated to the same operations of core's admin module.
 */

const sources = `${V1}/knowledge-bases/{kbId}/sources`;
const source = `${sources}/{sourceId}`;
const SOURCE: ErrorCode[] = ['validation_failed', 'knowledge_base_not_found', 'source_not_found'];

const owner = (route: Omit<RouteSpec<'admin'>, 'tag' | 'auth' | 'errors'> & { errors?: readonly ErrorCode[] }): Route => ({
  ...route,
  tag: 'admin',
  auth: 'admin',
  errors: [...ADMIN, ...(route.body || route.upload ? BODY : []), ...(route.errors ?? [])],
});

export const SOURCES_ADMIN_ROUTES: Route[] = [
  owner({
    method: 'get',
    path: sources,
    operationId: 'adminListSources',
    summary: "List a knowledge base's sources",
    description: 'Websites, files and the manual documents, oldest first, with their status and progress.',
    responses: { 200: { schema: envelope(z.array(sourceSchema)), description: 'The sources.' } },
    errors: ['validation_failed', 'knowledge_base_not_found'],
    handler: async ({ caller, core, params }) => ok(await core.admin.listKnowledgeSources(caller.accountId, params.kbId!)),
  }),
  owner({
    method: 'post',
    path: sources,
    operationId: 'adminAddSource',
    summary: 'Add a website source',
    description: 'A website to crawl, queued for its first sync (as `POST /knowledge-bases/{kbId}/sources`).',
    body: { schema: createSourceRequestSchema, required: true },
    responses: { 201: { schema: envelope(sourceSchema), description: 'The new source.' } },
    errors: ['knowledge_base_not_found'],
    handler: async ({ caller, core, params, body }) => ok(await core.admin.addKnowledgeSource(caller.accountId, params.kbId!, body), 201),
  }),
  owner({
    method: 'get',
    path: source,
    operationId: 'adminGetSource',
    summary: 'Read a source',
    description: 'Its status, progress, last sync and the pages that sync could not read.',
    responses: { 200: { schema: envelope(sourceDetailSchema), description: 'The source.' } },
    errors: SOURCE,
    handler: async ({ caller, core, params }) => ok(await core.admin.getKnowledgeSource(caller.accountId, params.kbId!, params.sourceId!)),
  }),
  owner({
    method: 'post',
    path: `${source}/sync`,
    operationId: 'adminSyncSource',
    summary: 'Sync a source now',
    description: 'Queues a sync of a website source; one already queued or running is answered as it is.',
    responses: { 200: { schema: envelope(sourceSchema), description: 'The source, queued or syncing.' } },
    errors: [...SOURCE, ...BODY],
    handler: async ({ caller, core, params }) => ok(await core.admin.syncKnowledgeSource(caller.accountId, params.kbId!, params.sourceId!)),
  }),
  owner({
    method: 'delete',
    path: source,
    operationId: 'adminDeleteSource',
    summary: 'Delete a source',
    description: 'The source with its documents and products.',
    responses: { 200: { schema: envelope(deletedSchema), description: 'Deleted.' } },
    errors: SOURCE,
    handler: async ({ caller, core, params }) => ok(await core.admin.deleteKnowledgeSource(caller.accountId, params.kbId!, params.sourceId!)),
  }),
  owner({
    method: 'post',
    path: `${V1}/knowledge-bases/{kbId}/files`,
    operationId: 'adminUploadFile',
    summary: 'Upload a file',
    description: 'A document or products file as a `file` source (as `POST /knowledge-bases/{kbId}/files`): multipart field `file`, at most 20 MB.',
    upload: { field: 'file', maxBytes: MAX_UPLOAD_BYTES },
    responses: { 201: { schema: envelope(sourceSchema), description: 'The file source, `ready` or `failed`.' } },
    errors: ['knowledge_base_not_found'],
    handler: async ({ caller, core, params, upload }) => {
      await core.admin.getKnowledgeBase(caller.accountId, params.kbId!);
      return ok(await core.admin.addKnowledgeFile(caller.accountId, params.kbId!, await extractUpload(await upload!())), 201);
    },
  }),
];
