import type { MessageAction, MessageSource, Product, Retrieval, RetrievedPassage, RetrievedProduct } from '@svc/core/store-kit';
import { escapeMarkdown, markdownLink, webAddress } from './markdown.js';
import type { Phrases } from './phrases.js';
import { bestUnits, renderUnits, splitUnits } from './sentences.js';
import { contentTerms } from './text.js';

export interface AnswerInput {
  question: string;
  retrieval: Retrieval;
  phrases: Phrases;
  /** BCP 47, for price formatting. */
  language: string;
  maxPassages: number;
  maxProducts: number;
  maxSentences: number;
  /** A form trigger to suggest when nothing matched, if the widget has one. */
  formTrigger: string | null;
  /** Below this confidence (0-1) a passage or product is not an answer (DESIGN.md section 11). */
  threshold: number;
}

export interface Answer {
  content: string;
  products: Product[];
  /** The document the answer quotes; empty when it abstains or answers from products alone. */
  sources: MessageSource[];
  /** When it abstains: the closest articles ("did you mean"), a person and the form, as buttons. */
  actions: MessageAction[];
  answered: boolean;
  /** The confidence the decision was taken on: the best of the passage's and the products'. */
  confidence: number;
}

/** Suggestions offered when the agent does not know. */
const MAX_SUGGESTIONS = 3;

/**
 * Turns a retrieval into a Markdown answer (DESIGN.md section 11). A passage answers only when its confidence
 * reaches the threshold: then the best sentences of that document's retrieved passages, with its source; products
 * are shown only when they too reach it (a question about products), and lead when they match better than any
 * passage ("what tents do you have?"). Below the threshold the agent says it does not know and offers the closest
 * articles, a person and the form instead of quoting an unrelated passage: a wrong answer costs a site more than
 * "I don't know". Passage text is the knowledge base owner's Markdown and is quoted as such; only the visitor's words
 * are escaped.
 */
export function composeAnswer(input: AnswerInput): Answer {
  const terms = contentTerms(input.question);
  const passages = input.retrieval.passages.slice(0, input.maxPassages);
  const top = passages[0];
  const passageConfidence = top?.confidence ?? 0;
  const products = confidentProducts(input.retrieval.products, input.threshold);
  const productConfidence = products[0]?.confidence ?? 0;
  const confidence = Math.max(passageConfidence, productConfidence);
  const shown = products.slice(0, input.maxProducts).map((hit) => hit.product);

  if (top === undefined || passageConfidence < input.threshold || productConfidence > passageConfidence) {
    if (shown.length > 0) {
      return { content: input.phrases.productsLead(productList(shown, input.language)), products: shown, sources: [], actions: [], answered: true, confidence };
    }
    return { content: notFound(input, terms), products: [], sources: [], actions: suggestions(input, passages), answered: false, confidence };
  }
  const sameDocument = passages.filter((p) => p.documentId === top.documentId);
  const blocks = [passageAnswer(sameDocument, terms, input), `_${input.phrases.source}: ${markdownLink(top.title, top.url)}_`];
  if (shown.length > 0) blocks.push(input.phrases.productsAlso(productList(shown, input.language)));
  return {
    content: blocks.filter((block) => block !== '').join('\n\n'),
    products: shown,
    sources: [{ documentId: top.documentId, title: top.title, url: top.url }],
    actions: [],
    answered: true,
    confidence,
  };
}

/**
 * The products that answer the question: those reaching the threshold and matching as much of it as the best one
 * (the others are the store's loose matches, "waterproof" finding a tent for "is the rain jacket waterproof?").
 */
function confidentProducts(products: readonly RetrievedProduct[], threshold: number): RetrievedProduct[] {
  const best = Math.max(0, ...products.map((hit) => hit.confidence));
  if (best < threshold) return [];
  return products.filter((hit) => hit.confidence >= best - 1e-9);
}

/** Sentences from every retrieved chunk of the best document: a store may split an answer across chunks. */
function passageAnswer(passages: readonly RetrievedPassage[], terms: readonly string[], input: AnswerInput): string {
  const text = passages.map((passage) => passage.content).join('\n\n');
  return renderUnits(bestUnits(splitUnits(text), terms, input.maxSentences));
}

function notFound(input: AnswerInput, terms: readonly string[]): string {
  // Only the question's words are quoted, never its raw text, and escaped even so: nothing the visitor typed
  // can become a link or HTML in the reply.
  const topic = terms.length > 0 ? escapeMarkdown(terms.slice(0, 6).join(' ')) : null;
  const lines = [input.phrases.notFound(topic), input.phrases.notFoundHint];
  if (input.formTrigger !== null) lines.push(input.phrases.formHint(escapeMarkdown(input.formTrigger)));
  return lines.join(' ');
}

/**
 * What the visitor may do instead, as buttons: the closest articles (a link when the document has a web address,
 * else a quick reply asking its title), then a person, then the widget's form. Never sources: the agent did not
 * answer from them.
 */
function suggestions(input: AnswerInput, passages: readonly RetrievedPassage[]): MessageAction[] {
  const actions: MessageAction[] = [];
  const seen = new Set<string>();
  for (const passage of passages) {
    if (seen.has(passage.documentId) || seen.size >= MAX_SUGGESTIONS) continue;
    seen.add(passage.documentId);
    // Only http(s) addresses become links (DESIGN.md section 13); anything else is offered as a question instead.
    const url = webAddress(passage.url);
    actions.push(url === null ? { type: 'reply', label: passage.title, text: passage.title } : { type: 'link', label: passage.title, url });
  }
  actions.push({ type: 'reply', label: input.phrases.askPerson.label, text: input.phrases.askPerson.text });
  if (input.formTrigger !== null) actions.push({ type: 'reply', label: input.formTrigger, text: input.formTrigger });
  return actions;
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
