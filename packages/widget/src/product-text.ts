import type { Product } from './api-types.js';

/**
 * A product link in a reply, with the price or note that usually follows it: `[Tent](url) ($89.00)` or
 * `[Tent](url) — $89`. Bounded quantifiers only (hostile input stays linear).
 */
const PRODUCT_LINK = /\[([^\]\n]{1,500})\]\(\s*<?([^\s<>()]{1,2000})>?(?:\s+"[^"\n]{0,500}")?\s*\)(?:\s{0,3}\([^()\n]{0,60}\)|\s{1,3}[—–-]\s{1,3}[^\s,;]{0,20}\d[^\s,;]{0,20})?/g;
const MARK = '\u0000';

/** Compares product pages leniently: no fragment, no trailing slash, case-insensitive host. */
function pageKey(url: unknown): string | null {
  if (typeof url !== 'string') return null;
  try {
    const parsed = new URL(url);
    return `${parsed.host.toLowerCase()}${parsed.pathname.replace(/\/+$/, '')}${parsed.search}`;
  } catch {
    return null;
  }
}

/**
 * The reply text without the product listing the cards below it already show (issue 12, defect 6). A rule on
 * the widget's side, so it holds whatever the agent writes: every link to a card's page goes, with the price
 * after it; a list item or line left with nothing but such links goes whole; a sentence that introduced them keeps
 * its words ("Here is what I found:"). Links to other pages, and product names in running text, stay.
 */
export function withoutProductListing(content: string, products: readonly Product[]): string {
  const pages = new Set(products.map((product) => pageKey(product.url)).filter((key) => key !== null));
  if (!pages.size) return content;
  const marked = content.replace(PRODUCT_LINK, (whole, _label: string, href: string) => (pages.has(pageKey(href) ?? '') ? MARK : whole));
  if (marked === content) return content;
  const lines = marked.split('\n').flatMap((line) => {
    if (!line.includes(MARK)) return [line];
    // Only links and the separators between them (commas, "and", dashes, a list marker): the line was the listing.
    const rest = line.replace(new RegExp(`${MARK}|^\\s*(?:[-*+]|\\d{1,9}[.)])\\s|[,;&.]|\\s(?:and|or|et|ou|und|oder|y|o)\\s|\\s+`, 'gi'), '');
    if (!rest) return [];
    return [
      line
        // A run of marks with their separators, then what is left around it.
        .replace(new RegExp(`${MARK}(?:\\s*(?:,|;|&|\\band\\b|\\bet\\b|\\bund\\b|\\by\\b)?\\s*${MARK})*`, 'g'), MARK)
        .replace(new RegExp(`\\s*${MARK}\\s*([.!]?)`, 'g'), '$1')
        .replace(/([:：])\s*[.!]$/, '$1')
        .trimEnd(),
    ];
  });
  return lines.join('\n').replace(/\n{3,}/g, '\n\n').trim();
}
