import type { Queryable } from './sql-driver.js';

/**
 * Choosing a PostgreSQL text search configuration from a BCP 47 language, and turning a visitor's question into a
 * tsquery that matches passages sharing any of its words.
 */

/** Primary language subtag → the snowball configuration PostgreSQL ships for it (not every server has all). */
const CONFIG_BY_LANGUAGE: Readonly<Record<string, string>> = {
  ar: 'arabic',
  hy: 'armenian',
  eu: 'basque',
  ca: 'catalan',
  da: 'danish',
  nl: 'dutch',
  en: 'english',
  et: 'estonian',
  fi: 'finnish',
  fr: 'french',
  de: 'german',
  el: 'greek',
  hi: 'hindi',
  hu: 'hungarian',
  id: 'indonesian',
  ga: 'irish',
  it: 'italian',
  lt: 'lithuanian',
  ne: 'nepali',
  nb: 'norwegian',
  nn: 'norwegian',
  no: 'norwegian',
  pt: 'portuguese',
  ro: 'romanian',
  ru: 'russian',
  sr: 'serbian',
  es: 'spanish',
  sv: 'swedish',
  ta: 'tamil',
  tr: 'turkish',
  yi: 'yiddish',
};

/** The configuration of the stored search vectors, used when a query names no language. */
export const DEFAULT_TEXT_SEARCH_CONFIG = 'english';

/**
 * `english` when no language is given, the language's own configuration when this server has it (PostgreSQL 15 has
 * no `armenian` or `serbian`, for instance), else `simple`: no stemming, but still lowercased whole words.
 *
 * @example
 * textSearchConfig('fr-CA', available); // 'french'
 * textSearchConfig('ja', available);    // 'simple'
 */
export function textSearchConfig(language: string | undefined, available: ReadonlySet<string>): string {
  if (language === undefined || language.trim() === '') return DEFAULT_TEXT_SEARCH_CONFIG;
  const primary = language.trim().toLowerCase().split(/[-_]/)[0] ?? '';
  const config = CONFIG_BY_LANGUAGE[primary];
  return config !== undefined && available.has(config) ? config : 'simple';
}

/**
 * A tsquery OR-ing the lexemes PostgreSQL extracted from the question, or null when there are none (only stopwords
 * or punctuation). OR, not AND: "do you ship to Canada?" must find "We ship to Canada" although "you" is not there;
 * ranking puts the passages sharing the most words first. Lexemes are quoted so none is read as an operator.
 *
 * @example
 * orQuery(['ship', 'canada']); // "'ship' | 'canada'"
 */
export function orQuery(lexemes: readonly string[]): string | null {
  const quoted = lexemes.filter((lexeme) => lexeme !== '').map((lexeme) => `'${lexeme.replace(/\\/g, '\\\\').replace(/'/g, "''")}'`);
  return quoted.length > 0 ? quoted.join(' | ') : null;
}

/** The configurations installed on this server; PGlite 0.5 ships all of PostgreSQL 18's. */
export async function availableTextSearchConfigs(db: Queryable): Promise<ReadonlySet<string>> {
  const rows = await db.query<{ cfgname: string }>('select cfgname from pg_ts_config');
  return new Set(rows.map((row) => row.cfgname));
}
