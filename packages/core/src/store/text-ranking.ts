import { ENGLISH_STOPWORDS, stemEnglish } from '../text-terms.js';

/**
 * Small full-text ranking for the memory store: tokenising, light English stemming and BM25. PostgreSQL stores use
 * their own text search; both only promise that the obviously relevant passage ranks first.
 */

export { stemEnglish };

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
