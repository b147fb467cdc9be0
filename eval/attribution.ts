/**
 * Which FAQ entry a reply used, read from the reply's text alone, so the rule holds for any agent, not only for the
 * local one's layout.
 *
 * The local agent (packages/agents/src/compose-answer.ts) answers by quoting the best sentences of one document and
 * ending with a "Source: <document title>" line; with nothing found it says so, quoting only the question's content
 * words. Every document's title is an FAQ question, its content the answer. So a reply used an entry when:
 *
 * 1. it names the entry: the entry's whole title (its question) appears in the reply, as consecutive words; or,
 *    failing that,
 * 2. it quotes the entry: it shares with the entry's answer a run of at least {@link MIN_QUOTED_WORDS} consecutive
 *    words, or the whole answer when that is shorter (an answer of "See COVID-19 and Animals." is quoted whole or
 *    not at all).
 *
 * Several entries named: the one quoted longest, then the one with the longest title (a title that contains
 * another's is the more specific name). Several entries quoted equally long with none named: the first in FAQ
 * order. No entry named or quoted: the reply offered no entry (an honest "I don't know", a hand-over to a person,
 * small talk). Words are compared case-folded, letters and digits only, so Markdown escapes, emphasis and
 * punctuation do not matter. Run lengths are what count, never which words: the rule has no knowledge of this
 * dataset's wording.
 */

/** Eight consecutive words of an answer do not turn up in another answer, or in a reply, by chance. */
export const MIN_QUOTED_WORDS = 8;

export interface AttributableEntry {
  id: string;
  /** The title of the entry's document as the service holds it: the question, shortened if it was too long. */
  title: string;
  answer: string;
}

export interface Attribution {
  /** The entry the reply used, or null when it offered none. */
  entryId: string | null;
  /** How: the reply names the entry's title, quotes its answer, or neither. */
  by: 'named' | 'quoted' | 'none';
}

/** Case-folded words: runs of letters and digits. */
export function foldedWords(text: string): string[] {
  return text.normalize('NFKC').toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? [];
}

interface PreparedEntry {
  id: string;
  title: number[];
  answer: number[];
}

export interface Attributor {
  attribute(reply: string): Attribution;
}

/** Prepares the entries once (their words as numbers); `attribute` then reads one reply at a time. */
export function createAttributor(entries: readonly AttributableEntry[]): Attributor {
  const vocabulary = new Map<string, number>();
  const codes = (text: string): number[] =>
    foldedWords(text).map((word) => {
      let code = vocabulary.get(word);
      if (code === undefined) vocabulary.set(word, (code = vocabulary.size));
      return code;
    });
  const prepared: PreparedEntry[] = entries.map((entry) => ({ id: entry.id, title: codes(entry.title), answer: codes(entry.answer) }));

  return {
    attribute(reply) {
      // Words of the reply unknown to every entry get -1: they match nothing.
      const words = foldedWords(reply).map((word) => vocabulary.get(word) ?? -1);
      const scored = prepared.map((entry, order) => ({
        entry,
        order,
        named: entry.title.length > 0 && containsRun(words, entry.title),
        quoted: longestCommonRun(words, entry.answer),
      }));
      const named = scored.filter((item) => item.named);
      if (named.length > 0) {
        named.sort((a, b) => b.quoted - a.quoted || b.entry.title.length - a.entry.title.length || a.order - b.order);
        return { entryId: named[0]!.entry.id, by: 'named' };
      }
      const quoted = scored
        .filter((item) => item.quoted > 0 && item.quoted >= Math.min(MIN_QUOTED_WORDS, item.entry.answer.length))
        .sort((a, b) => b.quoted - a.quoted || a.order - b.order);
      return quoted.length > 0 ? { entryId: quoted[0]!.entry.id, by: 'quoted' } : { entryId: null, by: 'none' };
    },
  };
}

/** Whether `needle` occurs in `haystack` as consecutive items. */
function containsRun(haystack: readonly number[], needle: readonly number[]): boolean {
  outer: for (let start = 0; start + needle.length <= haystack.length; start++) {
    for (let offset = 0; offset < needle.length; offset++) if (haystack[start + offset] !== needle[offset]) continue outer;
    return true;
  }
  return false;
}

/** The length of the longest run of consecutive items `a` and `b` share (longest common substring, by words). */
export function longestCommonRun(a: readonly number[], b: readonly number[]): number {
  let previous = new Int32Array(b.length + 1);
  let current = new Int32Array(b.length + 1);
  let best = 0;
  for (let i = 1; i <= a.length; i++) {
    const item = a[i - 1]!;
    for (let j = 1; j <= b.length; j++) {
      const run = item !== -1 && item === b[j - 1] ? previous[j - 1]! + 1 : 0;
      current[j] = run;
      if (run > best) best = run;
    }
    [previous, current] = [current, previous];
  }
  return best;
}
