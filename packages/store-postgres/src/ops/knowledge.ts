import type { Product, StoreOps } from '@svc/core/store-kit';
import { chunkDocument } from '@svc/core/store-kit';
import { json, productColumns, toDocument, toKnowledgeBase, toProduct, type DocumentRow, type KnowledgeBaseRow, type ProductRow } from '../rows.js';
import type { Db } from './db.js';

type KnowledgeOps = Pick<
  StoreOps,
  | 'insertKnowledgeBase'
  | 'getKnowledgeBase'
  | 'listKnowledgeBases'
  | 'upsertProducts'
  | 'deleteProduct'
  | 'listProducts'
  | 'countProducts'
  | 'insertDocument'
  | 'getDocument'
  | 'deleteDocument'
  | 'deleteDocuments'
  | 'listDocuments'
>;

export function knowledgeOps(db: Db): KnowledgeOps {
  return {
    async insertKnowledgeBase(kb) {
      await db().query('insert into knowledge_bases (id, account_id, name, created_at) values ($1, $2, $3, $4)', [
        kb.id,
        kb.accountId,
        kb.name,
        kb.createdAt,
      ]);
    },
    async getKnowledgeBase(id) {
      const [row] = await db().query<KnowledgeBaseRow>('select * from knowledge_bases where id = $1', [id]);
      return row ? toKnowledgeBase(row) : null;
    },
    async listKnowledgeBases(accountId) {
      // Migration 1 gave knowledge_bases.id the database's collation: ties sort in code-point order explicitly.
      const rows = await db().query<KnowledgeBaseRow>(
        'select * from knowledge_bases where account_id = $1 order by created_at, id collate "C"',
        [accountId],
      );
      return rows.map(toKnowledgeBase);
    },

    async upsertProducts(knowledgeBaseId, products, sourceId) {
      if (products.length === 0) return;
      // One statement for the whole batch. PostgreSQL refuses to upsert one row twice in a statement, so a batch
      // naming an id twice keeps its last version, as the memory store does.
      const unique = [...new Map(products.map((product) => [product.id, product])).values()];
      await db().query(
        `insert into products (knowledge_base_id, id, name, price, currency, description, url, image_url, source_id)
         select $1, p.id, p.name, p.price, p.currency, p.description, p.url, p."imageUrl", $3
           from jsonb_to_recordset($2::jsonb)
             as p(id text, name text, price double precision, currency text, description text, url text, "imageUrl" text)
         on conflict (knowledge_base_id, id) do update set
           name = excluded.name, price = excluded.price, currency = excluded.currency,
           description = excluded.description, url = excluded.url, image_url = excluded.image_url, source_id = excluded.source_id`,
        [knowledgeBaseId, json(unique.map(productRecord)), sourceId ?? null],
      );
    },
    async deleteProduct(knowledgeBaseId, productId) {
      const rows = await db().query('delete from products where knowledge_base_id = $1 and id = $2 returning id', [knowledgeBaseId, productId]);
      return rows.length > 0;
    },
    async listProducts({ knowledgeBaseId, afterId, limit }) {
      const rows = await db().query<ProductRow>(
        `select ${productColumns()} from products
          where knowledge_base_id = $1 and ($2::text is null or id > $2)
          order by id limit $3`,
        [knowledgeBaseId, afterId ?? null, limit],
      );
      return rows.map(toProduct);
    },
    async countProducts(knowledgeBaseId) {
      const [row] = await db().query<{ count: number }>('select count(*)::int as count from products where knowledge_base_id = $1', [
        knowledgeBaseId,
      ]);
      return row?.count ?? 0;
    },

    async insertDocument(document) {
      const chunks = chunkDocument(document.content).map(({ position, content }) => ({ position, content }));
      // Document and passages in one statement, so a document is never stored without its passages.
      await db().query(
        `with inserted as (
           insert into documents (knowledge_base_id, id, title, content, url, created_at, source_id)
           values ($1, $2, $3, $4, $5, $6, $8)
           returning knowledge_base_id, id, title
         )
         insert into document_chunks (knowledge_base_id, document_id, position, title, content)
         select inserted.knowledge_base_id, inserted.id, c.position, inserted.title, c.content
           from inserted, jsonb_to_recordset($7::jsonb) as c(position integer, content text)`,
        [document.knowledgeBaseId, document.id, document.title, document.content, document.url, document.createdAt, json(chunks), document.sourceId],
      );
    },
    async getDocument(knowledgeBaseId, documentId) {
      const [row] = await db().query<DocumentRow>('select * from documents where knowledge_base_id = $1 and id = $2', [
        knowledgeBaseId,
        documentId,
      ]);
      return row ? toDocument(row) : null;
    },
    async deleteDocument(knowledgeBaseId, documentId) {
      // Its passages' vectors go with it (the cascade), so the knowledge base's vector version moves.
      const rows = await db().query(
        `with deleted as (delete from documents where knowledge_base_id = $1 and id = $2 returning id),
              bumped as (
                insert into knowledge_base_vectors (knowledge_base_id, version)
                select $1, 1 from deleted
                on conflict (knowledge_base_id) do update set version = knowledge_base_vectors.version + 1
              )
         select id from deleted`,
        [knowledgeBaseId, documentId],
      );
      return rows.length > 0;
    },
    async deleteDocuments(knowledgeBaseId, documentIds) {
      if (documentIds.length === 0) return 0;
      const rows = await db().query(
        `with deleted as (delete from documents where knowledge_base_id = $1 and id = any($2::text[]) returning id),
              bumped as (
                insert into knowledge_base_vectors (knowledge_base_id, version)
                select $1, 1 where exists (select 1 from deleted)
                on conflict (knowledge_base_id) do update set version = knowledge_base_vectors.version + 1
              )
         select id from deleted`,
        [knowledgeBaseId, [...new Set(documentIds)]],
      );
      return rows.length;
    },
    async listDocuments(knowledgeBaseId) {
      const rows = await db().query<DocumentRow>('select * from documents where knowledge_base_id = $1 order by created_at, id', [
        knowledgeBaseId,
      ]);
      return rows.map(toDocument);
    },
  };
}

/** Optional fields as explicit nulls, so a replaced product loses the fields its new version lacks. */
function productRecord(product: Product): Record<string, unknown> {
  return {
    id: product.id,
    name: product.name,
    price: product.price,
    currency: product.currency ?? null,
    description: product.description ?? null,
    url: product.url ?? null,
    imageUrl: product.imageUrl ?? null,
  };
}
