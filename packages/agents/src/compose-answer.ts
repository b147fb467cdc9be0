import type { KnowledgeHits, KnowledgePassage, Product } from '@svc/core/store-kit';
import { escapeMarkdown, markdownLink } from './markdown.js';
import type { Phrases } from './phrases.js';
import { bestUnits, renderUnits, splitUnits } from './sentences.js';
import { contentTerms, termCoverage } from './text.js';

export interface AnswerInput {
  question: string;
  hits: KnowledgeHits;
  phrases: Phrases;
  /** BCP 47, for price formatting. */
  language: string;
  maxPassages: number;
  maxProducts: number;
  maxSentences: number;
  /** A form trigger to suggest when nothing matched, if the widget has one. */
  formTrigger: string | null;
}

export interface Answer {
  content: string;
  products: Product[];
}

interface Ranked<T> {
  item: T;
  /** Question terms in the title and body. */
  score: number;
  /** Question terms in the title alone. */
  titled: number;
}

/**
 * Re-ranks store hits by how many of the question's terms they contain, then by how many their title or name
 * contains, keeping the store's order among equals. Full-text rank favours documents that repeat a word;
 * coverage favours the one that answers every part of "do you ship to Canada", and a matching title ("Order
 * tracking" for "where is my order?") settles a tie.
 */
function rerank<T>(
  items: readonly T[],
  terms: readonly string[],
  body: (item: T) => string,
  title: (item: T) => string,
): Ranked<T>[] {
  return items
    .map((item, index) => ({
      item,
      index,
      score: termCoverage(terms, `${title(item)}\n${body(item)}`),
      titled: termCoverage(terms, title(item)),
    }))
    .sort((a, b) => b.score - a.score || b.titled - a.titled || a.index - b.index)
    .map(({ item, score, titled }) => ({ item, score, titled }));
}

/**
 * Turns search hits into a Markdown answer: the best sentences of the best document's passages with its source,
 * and the best matching products in one line. Products lead instead when they match the question better than
 * any passage ("what tents do you have?"). With no hits at all, an honest miss. Passage text is the
 * knowledge base owner's Markdown and is quoted as such; only the visitor's words are escaped.
 */
export function composeAnswer(input: AnswerInput): Answer {
  const terms = contentTerms(input.question);
  const passages = rerank(input.hits.passages.slice(0, input.maxPassages), terms, (p) => p.content, (p) => p.title);
  const products = rerank(
    input.hits.products.map((hit) => hit.product),
    terms,
    (p) => p.description ?? '',
    (p) => p.name,
  );
  const topPassage = passages[0];
  const topProductScore = products[0]?.score ?? 0;
  if (topPassage === undefined && products.length === 0) return { content: notFound(input, terms), products: [] };

  // When anything shares a term with the question, only the products matching best are shown: the others are
  // the store's loose matches ("waterproof" finding a tent for "is the rain jacket waterproof?").
  const anyCoverage = Math.max(topPassage?.score ?? 0, topProductScore) > 0;
  const shown = products
    .filter((product) => !anyCoverage || (product.score > 0 && product.score === topProductScore))
    .slice(0, input.maxProducts)
    .map((product) => ({ ...product.item }));
  const productsLead = topProductScore > 0 && (topPassage === undefined || outranks(products[0], topPassage));

  if (topPassage === undefined || productsLead) {
    return { content: input.phrases.productsLead(productList(shown, input.language)), products: shown };
  }
  const sameDocument = passages.map((p) => p.item).filter((p) => p.documentId === topPassage.item.documentId);
  const blocks = [passageAnswer(sameDocument, terms, input), `_${input.phrases.source}: ${source(topPassage.item)}_`];
  if (shown.length > 0) blocks.push(input.phrases.productsAlso(productList(shown, input.language)));
  return { content: blocks.filter((block) => block !== '').join('\n\n'), products: shown };
}

/**
 * Whether the best product answers better than the best passage: more of the question's terms, or as many and more
 * of them in its name than the passage has in its title. A full tie goes to the passage, whose text explains.
 */
function outranks(product: Ranked<Product> | undefined, passage: Ranked<KnowledgePassage>): boolean {
  if (product === undefined) return false;
  return product.score > passage.score || (product.score === passage.score && product.titled > passage.titled);
}

/** Sentences from every retrieved chunk of the best document: a store may split an answer across chunks. */
function passageAnswer(passages: readonly KnowledgePassage[], terms: readonly string[], input: AnswerInput): string {
  const text = passages.map((passage) => passage.content).join('\n\n');
  return renderUnits(bestUnits(splitUnits(text), terms, input.maxSentences));
}

function source(passage: KnowledgePassage): string {
  return markdownLink(passage.title, passage.url);
}

function notFound(input: AnswerInput, terms: readonly string[]): string {
  // Only the question's words are quoted, never its raw text, and escaped even so: nothing the visitor typed
  // can become a link or HTML in the reply.
  const topic = terms.length > 0 ? escapeMarkdown(terms.slice(0, 6).join(' ')) : null;
  const lines = [input.phrases.notFound(topic), input.phrases.notFoundHint];
  if (input.formTrigger !== null) lines.push(input.phrases.formHint(escapeMarkdown(input.formTrigger)));
  return lines.join(' ');
}

/** What the agent reads of a product: enough to match and to count as input tokens. */
export function productText(product: Product): string {
  return product.description === undefined ? product.name : `${product.name}\n${product.description}`;
}

function productList(products: readonly Product[], language: string): string {
  return products
    .map((product) => `${markdownLink(product.name, product.url)} (${formatPrice(product, language)})`)
    .join(', ');
}

/** Prices in the reply's language; an unknown language or currency code falls back rather than failing a turn. */
export function formatPrice(product: Product, language: string): string {
  const amount = product.price;
  if (product.currency === undefined) return amount.toFixed(2);
  for (const locale of [language, 'en']) {
    try {
      return new Intl.NumberFormat(locale, { style: 'currency', currency: product.currency }).format(amount);
    } catch {
      // RangeError: malformed locale or currency; try the next locale, then the plain form below.
    }
  }
  return `${amount.toFixed(2)} ${escapeMarkdown(product.currency)}`;
}
