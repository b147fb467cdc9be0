/**
 * Splits knowledge documents into passages for retrieval. Every store chunks with this one function, so a document
 * yields the same passages in memory, on PGlite and on PostgreSQL, and search results agree across them.
 */

export interface DocumentChunk {
  /** 0-based position of the passage in its document. */
  position: number;
  /** Trail of the headings the passage sits under (`Shipping › Canada`); null before the first heading. */
  heading: string | null;
  /** The passage, starting with its heading trail so it still makes sense when quoted on its own. */
  content: string;
}

export interface ChunkOptions {
  /** Target maximum length of a passage in characters, heading included. Default 800. */
  maxChars?: number;
}

export const DEFAULT_CHUNK_CHARS = 800;
/** Below this a passage loses its meaning; smaller requests are raised to it. */
const MIN_CHUNK_CHARS = 80;

interface Section {
  trail: string | null;
  blocks: string[];
}

const FENCE = /^\s{0,3}(`{3,}|~{3,})/;
const ATX_HEADING = /^\s{0,3}(#{1,6})[ \t]+(.*?)(?:[ \t]+#+)?[ \t]*$/;

/**
 * Splits Markdown (or plain text) on headings, then paragraphs, packing consecutive paragraphs of one section into
 * passages of at most `maxChars`. Paragraphs too long on their own are split at sentences, then words.
 *
 * @example
 * chunkDocument('# Shipping\n\nWe ship to Canada.\n\n## Costs\n\nFree over $50.');
 * // → [{ position: 0, heading: 'Shipping', content: 'Shipping\n\nWe ship to Canada.' },
 * //    { position: 1, heading: 'Shipping › Costs', content: 'Shipping › Costs\n\nFree over $50.' }]
 */
export function chunkDocument(content: string, options: ChunkOptions = {}): DocumentChunk[] {
  const maxChars = Math.max(options.maxChars ?? DEFAULT_CHUNK_CHARS, MIN_CHUNK_CHARS);
  const chunks: DocumentChunk[] = [];
  for (const section of splitSections(content)) {
    const prefix = section.trail === null ? '' : `${section.trail}\n\n`;
    // A deep heading trail must not starve the body: it gets at least half the budget.
    const budget = Math.max(maxChars - prefix.length, Math.floor(maxChars / 2));
    const pieces = section.blocks.flatMap((block) => splitToFit(block, budget, 0));
    for (const body of pack(pieces, budget, '\n\n')) {
      chunks.push({ position: chunks.length, heading: section.trail, content: prefix + body });
    }
  }
  return chunks;
}

function splitSections(content: string): Section[] {
  const sections: Section[] = [];
  const headings: Array<{ level: number; text: string }> = [];
  let current: Section = { trail: null, blocks: [] };
  let paragraph: string[] = [];
  let fence: string | null = null;

  const flushParagraph = (): void => {
    const text = paragraph.join('\n').trim();
    if (text !== '') current.blocks.push(text);
    paragraph = [];
  };

  for (const line of content.replace(/\r\n?/g, '\n').split('\n')) {
    const fenceMatch = FENCE.exec(line);
    if (fenceMatch?.[1] !== undefined && (fence === null || fenceMatch[1].startsWith(fence))) {
      // Inside a code block neither `#` lines nor blank lines mean structure.
      fence = fence === null ? fenceMatch[1] : null;
      paragraph.push(line);
      continue;
    }
    if (fence !== null) {
      paragraph.push(line);
      continue;
    }
    const heading = ATX_HEADING.exec(line);
    if (heading?.[1] !== undefined) {
      flushParagraph();
      if (current.blocks.length > 0) sections.push(current);
      const level = heading[1].length;
      while ((headings.at(-1)?.level ?? 0) >= level) headings.pop();
      const text = (heading[2] ?? '').trim();
      if (text !== '') headings.push({ level, text });
      current = { trail: headings.length > 0 ? headings.map((h) => h.text).join(' › ') : null, blocks: [] };
      continue;
    }
    if (line.trim() === '') flushParagraph();
    else paragraph.push(line);
  }
  flushParagraph();
  if (current.blocks.length > 0) sections.push(current);
  return sections;
}

/** Finer and finer ways to cut a text that does not fit: sentences, then words. */
const SPLITTERS: Array<(text: string) => string[]> = [
  (text) => text.split(/(?<=[.!?])\s+/),
  (text) => text.split(/\s+/),
];

function splitToFit(text: string, budget: number, level: number): string[] {
  if (text.length <= budget) return [text];
  const splitter = SPLITTERS[level];
  if (splitter === undefined) {
    const slices: string[] = [];
    for (let start = 0; start < text.length; start += budget) slices.push(text.slice(start, start + budget));
    return slices;
  }
  const parts = splitter(text).filter((part) => part !== '');
  if (parts.length <= 1) return splitToFit(text, budget, level + 1);
  return pack(
    parts.flatMap((part) => splitToFit(part, budget, level + 1)),
    budget,
    ' ',
  );
}

/** Greedily joins consecutive pieces (each already within `budget`) while the result stays within `budget`. */
function pack(pieces: string[], budget: number, separator: string): string[] {
  const out: string[] = [];
  let current = '';
  for (const piece of pieces) {
    if (current === '') current = piece;
    else if (current.length + separator.length + piece.length <= budget) current += separator + piece;
    else {
      out.push(current);
      current = piece;
    }
  }
  if (current !== '') out.push(current);
  return out;
}
