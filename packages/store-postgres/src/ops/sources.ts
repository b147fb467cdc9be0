import type { KnowledgeSource, SourcePage, StoreOps } from '@svc/core/store-kit';
import { json } from '../rows.js';
import type { Db } from './db.js';

type SourceOps = Pick<
  StoreOps,
  | 'insertSource'
  | 'ensureManualSource'
  | 'getSource'
  | 'listSources'
  | 'updateSource'
  | 'deleteSource'
  | 'claimSource'
  | 'countSourceDocuments'
  | 'addSourcePages'
  | 'getSourcePage'
  | 'putSourcePage'
  | 'deleteSourcePage'
  | 'listSourcePages'
>;

interface SourceRow {
  id: string;
  knowledge_base_id: string;
  account_id: string;
  type: KnowledgeSource['type'];
  url: string | null;
  file_name: string | null;
  include: string[];
  exclude: string[];
  max_pages: number | null;
  schedule: KnowledgeSource['schedule'];
  status: KnowledgeSource['status'];
  progress: KnowledgeSource['progress'];
  last_sync_started_at: Date | null;
  last_sync_finished_at: Date | null;
  last_sync_error: string | null;
  next_sync_at: Date | null;
  generation: number;
  lease_owner: string | null;
  lease_expires_at: Date | null;
  created_at: Date;
}

interface PageRow {
  source_id: string;
  url: string;
  state: SourcePage['state'];
  etag: string | null;
  last_modified: string | null;
  content_hash: string | null;
  document_ids: string[];
  links: string[];
  status: number | null;
  error: string | null;
  generation: number;
  updated_at: Date;
}

const toSource = (row: SourceRow): KnowledgeSource => ({
  id: row.id,
  knowledgeBaseId: row.knowledge_base_id,
  accountId: row.account_id,
  type: row.type,
  url: row.url,
  fileName: row.file_name,
  include: row.include,
  exclude: row.exclude,
  maxPages: row.max_pages,
  schedule: row.schedule,
  status: row.status,
  progress: row.progress,
  lastSync:
    row.last_sync_started_at === null ? null : { startedAt: row.last_sync_started_at, finishedAt: row.last_sync_finished_at, error: row.last_sync_error },
  nextSyncAt: row.next_sync_at,
  generation: row.generation,
  lease: row.lease_owner === null || row.lease_expires_at === null ? null : { owner: row.lease_owner, expiresAt: row.lease_expires_at },
  createdAt: row.created_at,
});

const toPage = (row: PageRow): SourcePage => ({
  sourceId: row.source_id,
  url: row.url,
  state: row.state,
  etag: row.etag,
  lastModified: row.last_modified,
  contentHash: row.content_hash,
  documentIds: row.document_ids,
  links: row.links,
  status: row.status,
  error: row.error,
  generation: row.generation,
  updatedAt: row.updated_at,
});

const SOURCE_COLUMNS = `id, knowledge_base_id, account_id, type, url, file_name, include, exclude, max_pages, schedule, status, progress,
  last_sync_started_at, last_sync_finished_at, last_sync_error, next_sync_at, generation, lease_owner, lease_expires_at, created_at`;

function sourceValues(source: KnowledgeSource): unknown[] {
  return [
    source.id,
    source.knowledgeBaseId,
    source.accountId,
    source.type,
    source.url,
    source.fileName,
    json(source.include),
    json(source.exclude),
    source.maxPages,
    source.schedule,
    source.status,
    json(source.progress),
    source.lastSync?.startedAt ?? null,
    source.lastSync?.finishedAt ?? null,
    source.lastSync?.error ?? null,
    source.nextSyncAt,
    source.generation,
    source.lease?.owner ?? null,
    source.lease?.expiresAt ?? null,
    source.createdAt,
  ];
}

const INSERT_SOURCE = `insert into knowledge_sources (${SOURCE_COLUMNS})
  values ($1, $2, $3, $4, $5, $6, $7::jsonb, $8::jsonb, $9, $10, $11, $12::jsonb, $13, $14, $15, $16, $17, $18, $19, $20)`;

/** The columns a {@link SourcePatch} field sets, and their values. */
function patchColumns(patch: Partial<KnowledgeSource>): Array<[string, unknown]> {
  const columns: Array<[string, unknown]> = [];
  if (patch.status !== undefined) columns.push(['status', patch.status]);
  if (patch.schedule !== undefined) columns.push(['schedule', patch.schedule]);
  if (patch.progress !== undefined) columns.push(['progress', json(patch.progress)]);
  if (patch.generation !== undefined) columns.push(['generation', patch.generation]);
  if (patch.nextSyncAt !== undefined) columns.push(['next_sync_at', patch.nextSyncAt]);
  if (patch.lastSync !== undefined) {
    columns.push(['last_sync_started_at', patch.lastSync?.startedAt ?? null]);
    columns.push(['last_sync_finished_at', patch.lastSync?.finishedAt ?? null]);
    columns.push(['last_sync_error', patch.lastSync?.error ?? null]);
  }
  if (patch.lease !== undefined) {
    columns.push(['lease_owner', patch.lease?.owner ?? null]);
    columns.push(['lease_expires_at', patch.lease?.expiresAt ?? null]);
  }
  return columns;
}

export function sourceOps(db: Db): SourceOps {
  return {
    async insertSource(source) {
      await db().query(INSERT_SOURCE, sourceValues(source));
    },
    async ensureManualSource(candidate) {
      // The partial unique index keeps one manual source per knowledge base; a racing insert is a no-op.
      await db().query(`${INSERT_SOURCE} on conflict (knowledge_base_id) where type = 'manual' do nothing`, sourceValues(candidate));
      const [row] = await db().query<SourceRow>(`select ${SOURCE_COLUMNS} from knowledge_sources where knowledge_base_id = $1 and type = 'manual'`, [
        candidate.knowledgeBaseId,
      ]);
      if (!row) throw new Error(`The manual source of ${candidate.knowledgeBaseId} could not be stored`);
      return toSource(row);
    },
    async getSource(knowledgeBaseId, sourceId) {
      const [row] = await db().query<SourceRow>(`select ${SOURCE_COLUMNS} from knowledge_sources where id = $1 and knowledge_base_id = $2`, [
        sourceId,
        knowledgeBaseId,
      ]);
      return row ? toSource(row) : null;
    },
    async listSources(knowledgeBaseId) {
      const rows = await db().query<SourceRow>(`select ${SOURCE_COLUMNS} from knowledge_sources where knowledge_base_id = $1 order by created_at, id`, [
        knowledgeBaseId,
      ]);
      return rows.map(toSource);
    },
    async updateSource({ id, owner, patch }) {
      const columns = patchColumns(patch);
      const sets = columns.map(([column], index) => `${column} = $${index + 3}`);
      const assignments = sets.length > 0 ? sets.join(', ') : 'id = id';
      const [row] = await db().query<SourceRow>(
        `update knowledge_sources set ${assignments}
          where id = $1 and ($2::text is null or lease_owner = $2)
          returning ${SOURCE_COLUMNS}`,
        [id, owner ?? null, ...columns.map(([, value]) => value)],
      );
      return row ? toSource(row) : null;
    },
    async deleteSource(knowledgeBaseId, sourceId) {
      // Documents take their passages and vectors with them (the cascade), so the vector version moves.
      const rows = await db().query(
        `with deleted as (delete from knowledge_sources where id = $1 and knowledge_base_id = $2 returning id),
              pages as (delete from source_pages where source_id = $1 and exists (select 1 from deleted)),
              products as (delete from products where knowledge_base_id = $2 and source_id = $1 and exists (select 1 from deleted)),
              documents as (
                delete from documents where knowledge_base_id = $2 and source_id = $1 and exists (select 1 from deleted) returning id
              ),
              bumped as (
                insert into knowledge_base_vectors (knowledge_base_id, version)
                select $2, 1 where exists (select 1 from documents)
                on conflict (knowledge_base_id) do update set version = knowledge_base_vectors.version + 1
              )
         select id from deleted`,
        [sourceId, knowledgeBaseId],
      );
      return rows.length > 0;
    },
    async claimSource({ owner, now, leaseMs }) {
      const [row] = await db().query<SourceRow>(
        `update knowledge_sources set lease_owner = $1, lease_expires_at = $3
          where id = (
            select id from knowledge_sources
             where type = 'website'
               and (lease_owner is null or lease_owner = $1 or lease_expires_at <= $2)
               and (status in ('queued', 'syncing') or next_sync_at <= $2)
             order by case status when 'syncing' then 0 when 'queued' then 1 else 2 end, next_sync_at nulls first, created_at, id
             limit 1
             for update skip locked
          )
          returning ${SOURCE_COLUMNS}`,
        [owner, now, new Date(now.getTime() + leaseMs)],
      );
      return row ? toSource(row) : null;
    },
    async countSourceDocuments(knowledgeBaseId) {
      const rows = await db().query<{ source_id: string; count: number }>(
        `select source_id, count(*)::int as count from documents
          where knowledge_base_id = $1 and source_id is not null group by source_id`,
        [knowledgeBaseId],
      );
      return Object.fromEntries(rows.map((row) => [row.source_id, row.count]));
    },

    async addSourcePages({ sourceId, urls, generation, max, now }) {
      const unique = [...new Set(urls)];
      if (unique.length === 0) return [];
      // The source's row lock orders concurrent adders, so the count against `max` is exact.
      await db().query('select id from knowledge_sources where id = $1 for update', [sourceId]);
      const [counted] = await db().query<{ count: number }>('select count(*)::int as count from source_pages where source_id = $1 and generation = $2', [
        sourceId,
        generation,
      ]);
      const room = max - (counted?.count ?? 0);
      if (room <= 0) return [];
      const rows = await db().query<{ url: string }>(
        `with wanted as (
           select u.url, u.ord from unnest($2::text[]) with ordinality as u(url, ord)
            where not exists (select 1 from source_pages p where p.source_id = $1 and p.url = u.url and p.generation >= $3)
            order by u.ord
            limit $4
         )
         insert into source_pages (source_id, url, state, document_ids, links, generation, updated_at)
         select $1, wanted.url, 'pending', '[]', '[]', $3, $5 from wanted order by wanted.ord
         on conflict (source_id, url) do update set state = 'pending', generation = excluded.generation, status = null, error = null,
           updated_at = excluded.updated_at
          where source_pages.generation < excluded.generation
         returning url`,
        [sourceId, unique, generation, room, now],
      );
      const added = new Set(rows.map((row) => row.url));
      return unique.filter((url) => added.has(url));
    },
    async getSourcePage(sourceId, url) {
      const [row] = await db().query<PageRow>('select * from source_pages where source_id = $1 and url = $2', [sourceId, url]);
      return row ? toPage(row) : null;
    },
    async putSourcePage(page) {
      await db().query(
        `insert into source_pages (source_id, url, state, etag, last_modified, content_hash, document_ids, links, status, error, generation, updated_at)
         values ($1, $2, $3, $4, $5, $6, $7::jsonb, $8::jsonb, $9, $10, $11, $12)
         on conflict (source_id, url) do update set state = excluded.state, etag = excluded.etag, last_modified = excluded.last_modified,
           content_hash = excluded.content_hash, document_ids = excluded.document_ids, links = excluded.links, status = excluded.status,
           error = excluded.error, generation = excluded.generation, updated_at = excluded.updated_at`,
        [
          page.sourceId,
          page.url,
          page.state,
          page.etag,
          page.lastModified,
          page.contentHash,
          json(page.documentIds),
          json(page.links),
          page.status,
          page.error,
          page.generation,
          page.updatedAt,
        ],
      );
    },
    async deleteSourcePage(sourceId, url) {
      const rows = await db().query('delete from source_pages where source_id = $1 and url = $2 returning url', [sourceId, url]);
      return rows.length > 0;
    },
    async listSourcePages({ sourceId, state, generation, beforeGeneration, contentHash, limit }) {
      const rows = await db().query<PageRow>(
        `select * from source_pages
          where source_id = $1 and ($2::text is null or state = $2) and ($3::int is null or generation = $3)
            and ($4::int is null or generation < $4) and ($5::text is null or content_hash = $5)
          order by url limit $6`,
        [sourceId, state ?? null, generation ?? null, beforeGeneration ?? null, contentHash ?? null, limit],
      );
      return rows.map(toPage);
    },
  };
}
