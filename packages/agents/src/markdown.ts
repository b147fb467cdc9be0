/**
 * Characters that can start Markdown or HTML syntax in the middle of a line: emphasis, code, links and images
 * (`[`, `]`, `(`, `)`), raw HTML and autolinks (`<`, `>`), entities (`&`), strikethrough and table cells.
 * Line-start syntax (`#`, `-`, `>`, `1.`) cannot trigger because escaped text never contains a line break.
 */
const INLINE_SPECIALS = /[\\`*_[\]()<>&~|]/g;

/**
 * Makes text safe to place inside a Markdown line: the reader sees it literally, and it cannot open a link, an
 * image, HTML or a new block. Used for every string the agent did not write itself.
 *
 * @example
 * escapeMarkdown('[win](https://evil.example) <b>') // '\\[win\\]\\(https://evil.example\\) \\<b\\>'
 */
export function escapeMarkdown(text: string): string {
  return text.replace(/\s+/g, ' ').trim().replace(INLINE_SPECIALS, '\\$&');
}

/**
 * A Markdown link to `url`, or the escaped text alone when the URL is not an absolute http(s) address: a
 * knowledge base entry must not be able to produce a `javascript:` link.
 *
 * @example
 * markdownLink('Returns', 'https://shop.example/help/returns') // '[Returns](https://shop.example/help/returns)'
 */
export function markdownLink(text: string, url: string | null | undefined): string {
  const label = escapeMarkdown(text);
  const href = safeHref(url);
  return href === null ? label : `[${label}](${href})`;
}

/** `url` serialised when it is an absolute http(s) address, else null: the only addresses a reply may link to. */
export function webAddress(url: string | null | undefined): string | null {
  if (url === null || url === undefined || !URL.canParse(url)) return null;
  const parsed = new URL(url);
  return parsed.protocol === 'https:' || parsed.protocol === 'http:' ? parsed.href : null;
}

function safeHref(url: string | null | undefined): string | null {
  // The serialised URL has no spaces or angle brackets left; parentheses would still end the link early.
  return webAddress(url)?.replace(/\(/g, '%28').replace(/\)/g, '%29') ?? null;
}
