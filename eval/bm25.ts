/**
 * A plain Okapi BM25, the baseline the service's search is measured against: nothing the service does (stemming,
 * stopwords, title weighting, chunking) happens here, so "better than BM25" means better than the textbook ranking
 * of whole documents.
 *
 * - Tokens: lower-cased runs of letters and digits (`\p{L}\p{N}`); no stemming, no stopwords.
 * - Score of a document d for a query q, over the distinct terms t of q:
 *   idf(t) · tf(t, d) · (k1 + 1) / (tf(t, d) + k1 · (1 − b + b · |d| / avgdl)),
 *   with idf(t) = ln(1 + (N − df(t) + 0.5) / (df(t) + 0.5)) (the "+1" form Lucene uses, never negative).
 * - k1 = 1.2, b = 0.75 unless told otherwise.
 */

export interface Bm25Options {
  k1?: number;
  b?: number;
}

export interface Bm25Hit {
  /** The document's index in the list the index was built from. */
  index: number;
  score: number;
}

export interface Bm25Index {
  /** Documents with a positive score, best first; equal scores keep the documents' order. */
  search(query: string): Bm25Hit[];
}

/** Lower-cased runs of letters and digits, in order. */
export function tokenize(text: string): string[] {
  return text.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? [];
}

/** Indexes `documents` (each a text) for BM25 ranking. */
export function createBm25Index(documents: readonly string[], options: Bm25Options = {}): Bm25Index {
  const k1 = options.k1 ?? 1.2;
  const b = options.b ?? 0.75;
  const frequencies = documents.map((text) => {
    const tf = new Map<string, number>();
    for (const token of tokenize(text)) tf.set(token, (tf.get(token) ?? 0) + 1);
    return tf;
  });
  const lengths = documents.map((text) => tokenize(text).length);
  const count = documents.length;
  const averageLength = count === 0 ? 0 : lengths.reduce((sum, length) => sum + length, 0) / count;
  const documentFrequency = new Map<string, number>();
  for (const tf of frequencies) for (const term of tf.keys()) documentFrequency.set(term, (documentFrequency.get(term) ?? 0) + 1);

  const idf = (term: string): number => {
    const df = documentFrequency.get(term) ?? 0;
    return Math.log(1 + (count - df + 0.5) / (df + 0.5));
  };

  return {
    search(query) {
      const terms = [...new Set(tokenize(query))];
      const hits: Bm25Hit[] = [];
      frequencies.forEach((tf, index) => {
        const norm = k1 * (1 - b + (b * (lengths[index] ?? 0)) / (averageLength || 1));
        let score = 0;
        for (const term of terms) {
          const frequency = tf.get(term) ?? 0;
          if (frequency > 0) score += (idf(term) * (frequency * (k1 + 1))) / (frequency + norm);
        }
        if (score > 0) hits.push({ index, score });
      });
      // Array.prototype.sort is stable: equal scores stay in document order.
      return hits.sort((x, y) => y.score - x.score);
    },
  };
}
