import { adjacentPairs, termCoverage } from './text.js';

/** A sentence of prose, or one list item, in document order. */
export interface TextUnit {
  text: string;
  listItem: boolean;
  position: number;
}

const HEADING = /^#{1,6}\s/;
const LIST_MARKER = /^(?:[-*+]|\d{1,3}[.)])\s+/;
const TABLE_RULE = /^\|?\s*:?-{3,}/;
/** A sentence ends at `.`, `!` or `?` (also `…`) followed by space; Markdown keeps its abbreviations rare. */
const SENTENCE_END = /(?<=[.!?…])\s+(?=\S)/u;

/**
 * A one-line paragraph of a few words without a closing full stop is a heading in all but syntax: the heading
 * trail a store prefixes to each passage (`Shipping › Costs`), or a bold pseudo-heading. It names a topic, so it
 * matches the question's words, but quoted as an answer it says nothing.
 */
function isHeadingLike(lines: readonly string[]): boolean {
  const [only] = lines;
  return lines.length === 1 && only !== undefined && !/[.!?…]$/u.test(only) && only.split(/\s+/).length <= 12;
}

/**
 * Splits a Markdown passage into sentences and list items. Headings, heading-like lines and table rules are
 * dropped: they name a topic but answer nothing. Inline Markdown (bold, links) is kept: the reply is Markdown.
 */
export function splitUnits(markdown: string): TextUnit[] {
  const units: TextUnit[] = [];
  let paragraph: string[] = [];
  const flush = (): void => {
    if (isHeadingLike(paragraph)) paragraph = [];
    for (const sentence of paragraph.join(' ').split(SENTENCE_END)) {
      if (sentence.trim() !== '') units.push({ text: sentence.trim(), listItem: false, position: units.length });
    }
    paragraph = [];
  };
  for (const raw of markdown.split(/\r?\n/)) {
    const line = raw.trim().replace(/^>\s?/, '');
    if (line === '' || HEADING.test(line) || TABLE_RULE.test(line)) {
      flush();
    } else if (LIST_MARKER.test(line)) {
      flush();
      units.push({ text: line.replace(LIST_MARKER, ''), listItem: true, position: units.length });
    } else {
      paragraph.push(line);
    }
  }
  flush();
  return units;
}

/**
 * The units that best answer a question: those covering most of its terms, at most `max`, the best first. Among
 * equals, the one keeping more of the question's word pairs together wins ("return an item"), then the earlier.
 * Best first rather than document order: passages arrive in the store's rank order, not the document's.
 * When no unit shares a term (the store matched on something this scorer misses) the passage opens the answer.
 */
export function bestUnits(units: readonly TextUnit[], terms: readonly string[], max: number): TextUnit[] {
  const scored = units
    .map((unit) => ({ unit, score: termCoverage(terms, unit.text), pairs: adjacentPairs(terms, unit.text) }))
    .filter((entry) => entry.score > 0)
    .sort((a, b) => b.score - a.score || b.pairs - a.pairs || a.unit.position - b.unit.position)
    .slice(0, max)
    .map((entry) => entry.unit);
  return scored.length > 0 ? scored : units.slice(0, Math.min(max, 2));
}

/** Prose sentences as one paragraph, list items as a list after it. */
export function renderUnits(units: readonly TextUnit[]): string {
  const prose = units.filter((unit) => !unit.listItem).map((unit) => unit.text);
  const items = units.filter((unit) => unit.listItem).map((unit) => `- ${unit.text}`);
  return [prose.join(' '), items.join('\n')].filter((block) => block !== '').join('\n\n');
}
