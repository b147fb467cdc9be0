/**
 * Small full-text ranking for the memory store: tokenising, light English stemming and BM25. PostgreSQL stores use
 * their own text search; both only promise that the obviously relevant passage ranks first.
 */

/** Function words that would otherwise match every passage of an English knowledge base. */
const ENGLISH_STOPWORDS = new Set(
  (
    'a an and any are as at be been but by can could do does did for from had has have how i if in into is it its ' +
    'me my no not of on or our so than that the their them then there these they this to too us was we were what ' +
    'when where which who why will with would you your'
  ).split(' '),
);

/** English unless the BCP 47 tag says otherwise, the same default as the PostgreSQL stores. */
export function isEnglish(language: string | undefined): boolean {
  return language === undefined || language.toLowerCase().split('-')[0] === 'en';
}

/**
 * Lowercases, strips punctuation and, for English, drops stopwords and stems.
 *
 * @example
 * tokenize('Do you ship to Canada?'); // → ['ship', 'canada']
 */
export function tokenize(text: string, language?: string): string[] {
  const words = text.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? [];
  if (!isEnglish(language)) return words;
  return words.filter((word) => !ENGLISH_STOPWORDS.has(word)).map(stemEnglish);
}

/**
 * Light suffix stripping (plurals, -ing, -ed, final e), enough for `shipping`, `ships` and `shipped` to meet `ship`.
 * Deliberately simpler than Porter: it only has to conflate the common inflections of one query with its passage.
 */
export function stemEnglish(word: string): string {
  let stem = word;
  if (stem.length <= 3) return stem;
  if (stem.endsWith('ies') && stem.length > 4) stem = `${stem.slice(0, -3)}y`;
  else if (/(?:x|z|ch|sh|ss)es$/.test(stem)) stem = stem.slice(0, -2);
  else if (stem.endsWith('s') && !/(?:ss|us|is)$/.test(stem)) stem = stem.slice(0, -1);

  if (stem.endsWith('ing') && stem.length > 5) stem = undouble(stem.slice(0, -3));
  else if (stem.endsWith('ed') && stem.length > 4) {
    const base = stem.slice(0, -2);
    // `speed` and `need` are not past tenses: require a vowel and no trailing e in what remains.
    if (/[aeiouy]/.test(base) && !base.endsWith('e')) stem = undouble(base);
  }
  if (stem.endsWith('e') && stem.length >= 3) stem = stem.slice(0, -1);
  return stem;
}

/** `shipp` → `ship`; doubled l, s and z are kept (`fall`, `miss`, `buzz`). */
function undouble(stem: string): string {
  const last = stem.at(-1);
  if (last !== undefined && stem.at(-2) === last && /[bcdfghjkmnpqrtvw]/.test(last)) return stem.slice(0, -1);
  return stem;
}

export interface Scored<T> {
  item: T;
  score: number;
}

const K1 = 1.2;
const B = 0.75;

/**
 * Okapi BM25 of each document for the query terms, with OR semantics (a document matching any term scores).
 * Returns only documents with a positive score, best first; ties keep their input order.
 */
export function rankBm25<T>(queryTerms: readonly string[], docs: ReadonlyArray<{ item: T; terms: readonly string[] }>): Array<Scored<T>> {
  const terms = [...new Set(queryTerms)];
  if (terms.length === 0 || docs.length === 0) return [];
  const counts = docs.map((doc) => {
    const tf = new Map<string, number>();
    for (const term of doc.terms) tf.set(term, (tf.get(term) ?? 0) + 1);
    return tf;
  });
  const averageLength = docs.reduce((sum, doc) => sum + doc.terms.length, 0) / docs.length || 1;
  const idf = new Map<string, number>();
  for (const term of terms) {
    const df = counts.filter((tf) => tf.has(term)).length;
    // The "+1" form keeps idf positive even for a term present in every document.
    idf.set(term, Math.log(1 + (docs.length - df + 0.5) / (df + 0.5)));
  }

  const scored: Array<Scored<T>> = [];
  docs.forEach((doc, index) => {
    const tf = counts[index];
    if (tf === undefined) return;
    let score = 0;
    for (const term of terms) {
      const frequency = tf.get(term) ?? 0;
      if (frequency === 0) continue;
      const norm = K1 * (1 - B + (B * doc.terms.length) / averageLength);
      score += (idf.get(term) ?? 0) * ((frequency * (K1 + 1)) / (frequency + norm));
    }
    if (score > 0) scored.push({ item: doc.item, score });
  });
  return scored.sort((a, b) => b.score - a.score);
}
