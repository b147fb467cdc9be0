import { stemEnglish, STOPWORDS } from '@svc/core/store-kit';

/**
 * Folds text for matching: lower case, accents removed (`Tschüß` → `tschuss`, `adiós` → `adios`), every run
 * of non-letters and non-digits turned into one space. Apostrophes become spaces too, so French elisions
 * (`l'expédition`) keep their content word and English contractions split predictably (`that's` → `that s`).
 */
export function foldText(text: string): string {
  return text
    .normalize('NFD')
    .replace(/\p{M}+/gu, '')
    .toLowerCase()
    .replace(/ß/g, 'ss')
    .replace(/[^\p{L}\p{N}]+/gu, ' ')
    .trim();
}

/** The folded words of `text`, in order. */
export function words(text: string): string[] {
  const folded = foldText(text);
  return folded === '' ? [] : folded.split(' ');
}

/** The words that carry meaning (no stopwords, no single letters), in order, repeats kept. */
export function contentWords(text: string): string[] {
  return words(text).filter((word) => (word.length >= 2 || /\d/.test(word)) && !STOPWORDS.has(word));
}

/** Distinct words that carry meaning, in order of first appearance: the terms of a question. */
export function contentTerms(text: string): string[] {
  return [...new Set(contentWords(text))];
}

/** The project's one stemmer (in @svc/core, shared with the memory store's ranking). */
export const stem = stemEnglish;

/** Whether two folded words are the same term once their inflection is stripped. */
export function sameTerm(a: string, b: string): boolean {
  return a === b || stem(a) === stem(b);
}

/** How many of `terms` occur in `text`: the relevance measure used to rank passages, sentences and products. */
export function termCoverage(terms: readonly string[], text: string): number {
  if (terms.length === 0) return 0;
  const present = [...new Set(words(text))];
  let covered = 0;
  for (const term of terms) if (present.some((word) => sameTerm(term, word))) covered += 1;
  return covered;
}

/** Whether `phrase` occurs in `text` as whole words, both folded (case, accents and punctuation ignored). */
export function containsPhrase(text: string, phrase: string): boolean {
  const needle = foldText(phrase);
  return needle !== '' && ` ${foldText(text)} `.includes(` ${needle} `);
}

/**
 * How many consecutive pairs of `terms` (the question's order) also follow each other in `text`, stopwords aside:
 * "express shipping" is worth more in "Express shipping takes 1-2 days" than in "DHL Express … we ship".
 */
export function adjacentPairs(terms: readonly string[], text: string): number {
  const sequence = contentWords(text);
  let pairs = 0;
  for (let i = 0; i + 1 < terms.length; i++) {
    const [first, second] = [terms[i] ?? '', terms[i + 1] ?? ''];
    const follows = sequence.some((word, j) => sameTerm(word, first) && sameTerm(sequence[j + 1] ?? '', second));
    if (follows) pairs += 1;
  }
  return pairs;
}
