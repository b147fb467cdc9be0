import type { Product } from './api-types.js';

/**
 * A product link in a reply, with the price or note that usually follows it: `[Tent](url) ($89.00)` or
 * `[Tent](url) — $89`. Bounded quantifiers only (hostile input stays linear).
 */
const PRODUCT_LINK = /\[([^\]\n]{1,500})\]\(\s*<?([^\s<>()]{1,2000})>?(?:\s+"[^"\n]{0,500}")?\s*\)(?:\s{0,3}\([^()\n]{0,60}\)|\s{1,3}[—–-]\s{1,3}[^\s,;]{0,20}\d[^\s,;]{0,20})?/g;
const MARK = '\0';

/** Compares product pages leniently: without the fragment and a trailing slash, case-insensitive. */
const pageKey = (url: unknown): string | null => (typeof url === 'string' ? url.replace(/#.*|\/+$/g, '').toLowerCase() : null);

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
  return (
    marked
      // A run of links with the separators between them (commas, "and", a list marker before it) goes whole…
      .replace(/(?:^[ \t]*(?:[-*+]|\d{1,9}[.)])[ \t]+)?\0(?:[ \t]*(?:[,;&]|and|et|und|y|o|or|ou)?[ \t]*\0)*/gim, '\0')
      // …with the space before it and the full stop after it; a line left empty goes too.
      .replace(/[ \t]*\0[ \t]*[.!]?/g, '')
      .replace(/\n{3,}/g, '\n\n')
      .trim()
  );
}
