import type { KnowledgePassage, ProductHit, StoreOps } from '@svc/core/store-kit';
import { productColumns, toProduct, type ProductRow } from '../rows.js';
import { DEFAULT_TEXT_SEARCH_CONFIG, orQuery, textSearchConfig } from '../text-search.js';
import type { Db } from './db.js';

export interface SearchOptions {
  /** Text search configurations this server has (`select cfgname from pg_ts_config`). */
  configs: ReadonlySet<string>;
}

/**
 * The weighted vector of a passage or product in `config`. The stored, GIN-indexed column holds the default
 * configuration; any other language is vectorised at query time, after the knowledge-base filter has narrowed the
 * rows. `config` is bound as a parameter, never spliced into the SQL.
 */
function vector(config: string, stored: string, title: string, body: string, configParam: string): string {
  if (config === DEFAULT_TEXT_SEARCH_CONFIG) return stored;
  return `(setweight(to_tsvector(${configParam}::regconfig, ${title}), 'A') || setweight(to_tsvector(${configParam}::regconfig, ${body}), 'B'))`;
}

export function searchOps(db: Db, options: SearchOptions): Pick<StoreOps, 'searchKnowledge'> {
  return {
    async searchKnowledge({ knowledgeBaseIds, text, language, limit }) {
      if (knowledgeBaseIds.length === 0 || limit <= 0) return { passages: [], products: [] };
      const config = textSearchConfig(language, options.configs);
      const [parsed] = await db().query<{ lexemes: string[] }>('select tsvector_to_array(to_tsvector($1::regconfig, $2)) as lexemes', [
        config,
        text,
      ]);
      const query = orQuery(parsed?.lexemes ?? []);
      if (query === null) return { passages: [], products: [] };

      const passageVector = vector(config, 'c.search_vector', 'c.title', 'c.content', '$4');
      const productVector = vector(config, 'p.search_vector', 'p.name', "coalesce(p.description, '')", '$4');
      const params = config === DEFAULT_TEXT_SEARCH_CONFIG ? [knowledgeBaseIds, query, limit] : [knowledgeBaseIds, query, limit, config];

      // Only the listed knowledge bases are read: that filter is what keeps tenants apart.
      const passages = await db().query<{
        document_id: string;
        knowledge_base_id: string;
        title: string;
        url: string | null;
        content: string;
        rank: number;
      }>(
        `select c.document_id, c.knowledge_base_id, d.title, d.url, c.content, ts_rank(${passageVector}, $2::tsquery)::float8 as rank
           from document_chunks c
           join documents d on d.knowledge_base_id = c.knowledge_base_id and d.id = c.document_id
          where c.knowledge_base_id = any($1::text[]) and ${passageVector} @@ $2::tsquery
          order by rank desc, c.document_id, c.position
          limit $3`,
        params,
      );
      const products = await db().query<ProductRow & { rank: number }>(
        `select ${productColumns('p')}, ts_rank(${productVector}, $2::tsquery)::float8 as rank
           from products p
          where p.knowledge_base_id = any($1::text[]) and ${productVector} @@ $2::tsquery
          order by rank desc, p.id
          limit $3`,
        params,
      );

      return {
        passages: passages
          .filter((row) => row.rank > 0)
          .map(
            (row): KnowledgePassage => ({
              documentId: row.document_id,
              knowledgeBaseId: row.knowledge_base_id,
              title: row.title,
              url: row.url,
              content: row.content,
              rank: row.rank,
            }),
          ),
        products: products
          .filter((row) => row.rank > 0)
          .map((row): ProductHit => ({ knowledgeBaseId: row.knowledge_base_id, product: toProduct(row), rank: row.rank })),
      };
    },
  };
}
