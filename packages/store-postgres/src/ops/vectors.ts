import type { PassageKey, PassageVector, VectorOps } from '@svc/core/store-kit';
import { json } from '../rows.js';
import type { Db } from './db.js';

/** Float32, little-endian, as stored in `passage_vectors.vector`; base64 in transit (one JSON parameter per batch). */
export function encodeVector(vector: Float32Array): string {
  const bytes = Buffer.alloc(vector.length * 4);
  for (let i = 0; i < vector.length; i++) bytes.writeFloatLE(vector[i]!, i * 4);
  return bytes.toString('base64');
}

/** A vector read as `encode(vector, 'base64')`: PGlite parses a `bytea` column byte by byte, ten times slower. */
export function decodeVector(base64: string): Float32Array {
  const bytes = Buffer.from(base64, 'base64');
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const vector = new Float32Array(bytes.byteLength / 4);
  for (let i = 0; i < vector.length; i++) vector[i] = view.getFloat32(i * 4, true);
  return vector;
}

const keyColumns = 'knowledge_base_id, document_id, position';

interface KeyRow {
  knowledge_base_id: string;
  document_id: string;
  position: number;
}

const toKey = (row: KeyRow): PassageKey => ({ knowledgeBaseId: row.knowledge_base_id, documentId: row.document_id, position: row.position });

/** Moves the vector version of the knowledge bases whose vectors a statement changed (a CTE's `kbs`). */
const bumpVersions = /* sql */ `
  insert into knowledge_base_vectors (knowledge_base_id, version)
  select distinct knowledge_base_id, 1 from kbs
  on conflict (knowledge_base_id) do update set version = knowledge_base_vectors.version + 1`;

export function vectorOps(db: Db): VectorOps {
  return {
    async claimPassagesToEmbed({ model, owner, now, leaseMs, limit }) {
      // `skip locked` keeps two claimers off each other's candidates; the guarded upsert is what makes a lease
      // exclusive: a candidate another claimer leased after this statement's snapshot is not taken over.
      const rows = await db().query<KeyRow & { title: string; content: string; account_id: string }>(
        `with candidates as (
           select c.knowledge_base_id, c.document_id, c.position
             from document_chunks c
             join documents d on d.knowledge_base_id = c.knowledge_base_id and d.id = c.document_id
            where exists (select 1 from knowledge_bases k where k.id = c.knowledge_base_id)
              and not exists (select 1 from passage_vectors v
                               where v.knowledge_base_id = c.knowledge_base_id and v.document_id = c.document_id
                                 and v.position = c.position and v.model = $1)
              and not exists (select 1 from passage_embedding_leases l
                               where l.knowledge_base_id = c.knowledge_base_id and l.document_id = c.document_id
                                 and l.position = c.position and l.model = $1 and l.expires_at > $3)
            order by d.created_at, c.document_id, c.position
            limit $5
            for update of c skip locked
         ), leased as (
           insert into passage_embedding_leases (${keyColumns}, model, owner, expires_at)
           select ${keyColumns}, $1, $2, $4 from candidates
           on conflict (${keyColumns}, model) do update set owner = excluded.owner, expires_at = excluded.expires_at
            where passage_embedding_leases.expires_at <= $3
           returning ${keyColumns}
         )
         select l.knowledge_base_id, l.document_id, l.position, c.title, c.content, k.account_id
           from leased l
           join document_chunks c on c.knowledge_base_id = l.knowledge_base_id and c.document_id = l.document_id and c.position = l.position
           join documents d on d.knowledge_base_id = l.knowledge_base_id and d.id = l.document_id
           join knowledge_bases k on k.id = l.knowledge_base_id
          order by d.created_at, l.document_id, l.position`,
        [model, owner, now, new Date(now.getTime() + leaseMs), limit],
      );
      return rows.map((row) => ({ ...toKey(row), accountId: row.account_id, title: row.title, content: row.content }));
    },

    async savePassageVectors({ model, owner, vectors }) {
      if (vectors.length === 0) return [];
      const items = vectors.map((item) => ({
        knowledge_base_id: item.knowledgeBaseId,
        document_id: item.documentId,
        position: item.position,
        vector: encodeVector(item.vector),
      }));
      // Only under a lease still held: a passage replaced since its claim lost the lease in the cascade.
      const rows = await db().query<KeyRow>(
        `with released as (
           delete from passage_embedding_leases l
            using jsonb_to_recordset($3::jsonb) as i(knowledge_base_id text, document_id text, position integer, vector text)
            where l.knowledge_base_id = i.knowledge_base_id and l.document_id = i.document_id and l.position = i.position
              and l.model = $1 and l.owner = $2
           returning l.knowledge_base_id, l.document_id, l.position
         ), saved as (
           insert into passage_vectors (${keyColumns}, model, vector)
           select r.knowledge_base_id, r.document_id, r.position, $1, decode(i.vector, 'base64')
             from released r
             join jsonb_to_recordset($3::jsonb) as i(knowledge_base_id text, document_id text, position integer, vector text)
               on i.knowledge_base_id = r.knowledge_base_id and i.document_id = r.document_id and i.position = r.position
           on conflict (${keyColumns}, model) do update set vector = excluded.vector
           returning ${keyColumns}
         ), kbs as (select knowledge_base_id from saved), bumped as (${bumpVersions})
         select ${keyColumns} from saved`,
        [model, owner, json(items)],
      );
      return rows.map(toKey);
    },

    async releasePassageClaims({ model, owner }) {
      await db().query('delete from passage_embedding_leases where owner = $1 and model = $2', [owner, model]);
    },

    async removeOtherModelVectors(model) {
      const [row] = await db().query<{ count: number }>(
        `with removed as (delete from passage_vectors where model <> $1 returning knowledge_base_id),
              kbs as (select knowledge_base_id from removed), bumped as (${bumpVersions})
         select count(*)::int as count from removed`,
        [model],
      );
      return row?.count ?? 0;
    },

    async embeddingProgress({ knowledgeBaseIds, model }) {
      const rows = await db().query<{ id: string; passages: number; embedded: number }>(
        `select k.id,
                (select count(*)::int from document_chunks c where c.knowledge_base_id = k.id) as passages,
                (select count(*)::int from passage_vectors v where v.knowledge_base_id = k.id and v.model = $2) as embedded
           from unnest($1::text[]) with ordinality as k(id, n)
          order by k.n`,
        [knowledgeBaseIds, model],
      );
      return rows.map((row) => ({ knowledgeBaseId: row.id, passages: row.passages, embedded: row.embedded }));
    },

    async vectorVersions(knowledgeBaseIds) {
      const rows = await db().query<{ knowledge_base_id: string; version: string | number }>(
        'select knowledge_base_id, version from knowledge_base_vectors where knowledge_base_id = any($1::text[])',
        [knowledgeBaseIds],
      );
      const versions: Record<string, number> = Object.fromEntries(knowledgeBaseIds.map((id) => [id, 0]));
      for (const row of rows) versions[row.knowledge_base_id] = Number(row.version);
      return versions;
    },

    async listPassageVectors({ knowledgeBaseId, model, after, limit }) {
      // Two statements rather than one with `$3 is null or …`: each keeps a plan that walks the primary key in order.
      const columns = `${keyColumns}, encode(vector, 'base64') as vector`;
      const rows =
        after === undefined
          ? await db().query<KeyRow & { vector: string }>(
              `select ${columns} from passage_vectors where knowledge_base_id = $1 and model = $2 order by document_id, position limit $3`,
              [knowledgeBaseId, model, limit],
            )
          : await db().query<KeyRow & { vector: string }>(
              `select ${columns} from passage_vectors
                where knowledge_base_id = $1 and model = $2 and (document_id, position) > ($3::text collate "C", $4::integer)
                order by document_id, position limit $5`,
              [knowledgeBaseId, model, after.documentId, after.position, limit],
            );
      return rows.map((row): PassageVector => ({ ...toKey(row), vector: decodeVector(row.vector) }));
    },

    async getPassages(keys) {
      if (keys.length === 0) return [];
      const rows = await db().query<KeyRow & { title: string; url: string | null; content: string }>(
        `select c.knowledge_base_id, c.document_id, c.position, d.title, d.url, c.content
           from jsonb_to_recordset($1::jsonb) as k(knowledge_base_id text, document_id text, position integer, n integer)
           join document_chunks c on c.knowledge_base_id = k.knowledge_base_id and c.document_id = k.document_id and c.position = k.position
           join documents d on d.knowledge_base_id = c.knowledge_base_id and d.id = c.document_id
          order by k.n`,
        [json(keys.map((key, n) => ({ knowledge_base_id: key.knowledgeBaseId, document_id: key.documentId, position: key.position, n })))],
      );
      return rows.map((row) => ({ ...toKey(row), title: row.title, url: row.url, content: row.content }));
    },
  };
}
