import type { KnowledgePassage, ProductHit, StoreOps, TermMatch, TermStatistics } from '@svc/core/store-kit';
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
  return `(setweight(to_tsvector(${configParam}::regconfig, svc_search_text(${title})), 'A') || setweight(to_tsvector(${configParam}::regconfig, svc_search_text(${body})), 'B'))`;
}

export function searchOps(db: Db, options: SearchOptions): Pick<StoreOps, 'searchKnowledge'> {
  return {
    async searchKnowledge({ knowledgeBaseIds, text, language, limit }) {
      if (knowledgeBaseIds.length === 0 || limit <= 0) return { passages: [], products: [], terms: { passages: 0, frequencies: {} } };
      const config = textSearchConfig(language, options.configs);
      const [parsed] = await db().query<{ lexemes: string[] }>('select tsvector_to_array(to_tsvector($1::regconfig, svc_search_text($2))) as lexemes', [
        config,
        text,
      ]);
      const lexemes = [...new Set(parsed?.lexemes ?? [])];
      const query = orQuery(lexemes);
      if (query === null) return { passages: [], products: [], terms: { passages: 0, frequencies: {} } };

      const passageVector = vector(config, 'c.search_vector', 'c.title', 'c.content', '$5');
      const productVector = vector(config, 'p.search_vector', 'p.name', "coalesce(p.description, '')", '$5');
      const params = config === DEFAULT_TEXT_SEARCH_CONFIG ? [knowledgeBaseIds, query, limit, lexemes] : [knowledgeBaseIds, query, limit, lexemes, config];
      // What retrieval ranks and judges a hit by (TermMatch in @svc/core/store-kit), read off its vector: the query's
      // lexemes it holds in its title (weight A) and anywhere, how often each occurs in the title and the rest, and how
      // many words each part has. Computed on the rows the limit kept, never on every match.
      const features = `
        array(select unnest(tsvector_to_array(ts_filter(hit.vec, '{a}'))) intersect select unnest($4::text[])) as title_terms,
        array(select unnest(tsvector_to_array(hit.vec)) intersect select unnest($4::text[])) as all_terms,
        (select coalesce(jsonb_object_agg(u.lexeme, jsonb_build_array(
                  (select count(*) from unnest(u.weights) w where w = 'A'),
                  (select count(*) from unnest(u.weights) w where w <> 'A'))), '{}'::jsonb)
           from unnest(hit.vec) u where u.lexeme = any($4::text[])) as counts,
        (select coalesce(sum((select count(*) from unnest(u.weights) w where w = 'A')), 0)::int from unnest(hit.vec) u) as title_length,
        (select coalesce(sum((select count(*) from unnest(u.weights) w where w <> 'A')), 0)::int from unnest(hit.vec) u) as body_length`;

      // Only the listed knowledge bases are read: that filter is what keeps tenants apart.
      const passages = await db().query<
        {
          document_id: string;
          knowledge_base_id: string;
          position: number;
          title: string;
          url: string | null;
          content: string;
          rank: number;
        } & FeatureColumns
      >(
        `select hit.document_id, hit.knowledge_base_id, hit.position, hit.title, hit.url, hit.content, hit.rank, ${features}
           from (select c.document_id, c.knowledge_base_id, c.position, d.title, d.url, c.content,
                        ts_rank(${passageVector}, $2::tsquery)::float8 as rank, ${passageVector} as vec
                   from document_chunks c
                   join documents d on d.knowledge_base_id = c.knowledge_base_id and d.id = c.document_id
                  where c.knowledge_base_id = any($1::text[]) and ${passageVector} @@ $2::tsquery
                  order by rank desc, c.document_id, c.position
                  limit $3) as hit
          order by hit.rank desc, hit.document_id, hit.position`,
        params,
      );
      const products = await db().query<ProductRow & { rank: number } & FeatureColumns>(
        `select ${productColumns('hit')}, hit.rank, ${features}
           from (select ${productColumns('p')}, ts_rank(${productVector}, $2::tsquery)::float8 as rank, ${productVector} as vec
                   from products p
                  where p.knowledge_base_id = any($1::text[]) and ${productVector} @@ $2::tsquery
                  order by rank desc, p.id
                  limit $3) as hit
          order by hit.rank desc, hit.id`,
        params,
      );

      return {
        passages: passages
          .filter((row) => row.rank > 0)
          .map(
            (row): KnowledgePassage => ({
              documentId: row.document_id,
              knowledgeBaseId: row.knowledge_base_id,
              position: row.position,
              title: row.title,
              url: row.url,
              content: row.content,
              rank: row.rank,
              matched: termMatch(row),
            }),
          ),
        products: products
          .filter((row) => row.rank > 0)
          .map((row): ProductHit => ({
            knowledgeBaseId: row.knowledge_base_id,
            product: toProduct(row),
            rank: row.rank,
            matched: termMatch(row),
          })),
        terms: await termStatistics(db, { knowledgeBaseIds, lexemes, passageVector, config }),
      };
    },
  };
}

interface FeatureColumns {
  title_terms: string[];
  all_terms: string[];
  counts: Record<string, [number, number]>;
  title_length: number;
  body_length: number;
}

function termMatch(row: FeatureColumns): TermMatch {
  const counts: TermMatch['counts'] = {};
  for (const [term, [title, body]] of Object.entries(row.counts)) counts[term] = { title: Number(title), body: Number(body) };
  return { title: row.title_terms, all: row.all_terms, counts, length: { title: row.title_length, body: row.body_length } };
}

interface StatisticsQuery {
  knowledgeBaseIds: string[];
  lexemes: string[];
  passageVector: string;
  config: string;
}

/**
 * How many passages of the knowledge bases hold each lexeme, one index probe per lexeme (the GIN index answers
 * `@@` for one lexeme without reading the passages that lack it), and how many passages there are.
 */
async function termStatistics(db: Db, query: StatisticsQuery): Promise<TermStatistics> {
  const stored = query.config === DEFAULT_TEXT_SEARCH_CONFIG;
  // The stored vectors are GIN-indexed: one index probe per lexeme. Another language has no stored vector: each
  // passage is vectorised once (a materialised CTE), not once per lexeme.
  const rows = await db().query<{ lexeme: string | null; passages: number }>(
    stored
      ? `select null as lexeme, count(*)::int as passages from document_chunks c where c.knowledge_base_id = any($1::text[])
         union all
         select u.lexeme, (select count(*)::int from document_chunks c
                            where c.knowledge_base_id = any($1::text[]) and c.search_vector @@ quote_literal(u.lexeme)::tsquery)
           from unnest($2::text[]) as u(lexeme)`
      : `with v as materialized (
           select ${query.passageVector.replaceAll('$5', '$3')} as vec from document_chunks c where c.knowledge_base_id = any($1::text[])
         )
         select null as lexeme, count(*)::int as passages from v
         union all
         select u.lexeme, (select count(*)::int from v where v.vec @@ quote_literal(u.lexeme)::tsquery)
           from unnest($2::text[]) as u(lexeme)`,
    stored ? [query.knowledgeBaseIds, query.lexemes] : [query.knowledgeBaseIds, query.lexemes, query.config],
  );
  const frequencies: Record<string, number> = {};
  let passages = 0;
  for (const row of rows) {
    if (row.lexeme === null) passages = row.passages;
    else frequencies[row.lexeme] = row.passages;
  }
  return { passages, frequencies };
}
