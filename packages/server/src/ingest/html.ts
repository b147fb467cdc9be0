import { Readability } from '@mozilla/readability';
import { parseHTML } from 'linkedom';

/** What the site reader and the file upload keep of an HTML page (DESIGN.md section 11: main content only). */
export interface HtmlExtract {
  title: string;
  /** The main content as text: paragraphs on their own lines, blank lines between blocks, headings as `## Heading`. */
  text: string;
  /** `<link rel=canonical>`, absolute, without its fragment; null when absent or not http(s). */
  canonical: string | null;
  /** Every `<a href>` of the page (site navigation included: it is how a crawl finds pages), absolute http(s), no fragment. */
  links: string[];
  /** `<meta name=robots>` (or `SvcConversationsBot`) says `noindex` / `nofollow` (`none` says both). */
  noindex: boolean;
  nofollow: boolean;
}

/** The product token robots rules and `X-Robots-Tag: <bot>: …` address us by. */
export const BOT_NAME = 'SvcConversationsBot';

/**
 * Site chrome removed before Readability runs. Readability alone drops it from long articles, but on a short page
 * (a help-centre answer of two paragraphs) it falls back to the longest block, which can be the cookie banner; the
 * page's own landmarks say what is chrome, so they go first. A `header` or `footer` inside the article is the
 * article's own and stays.
 */
const CHROME = [
  'nav',
  'aside',
  '[role=navigation]',
  '[role=banner]',
  '[role=contentinfo]',
  '[role=complementary]',
  '[role=search]',
  '[role=dialog]',
  '[role=alertdialog]',
  '[aria-modal=true]',
  '[hidden]',
  '[aria-hidden=true]',
  '[id*=cookie i]',
  '[class*=cookie i]',
  '[id*=consent i]',
  '[class*=consent i]',
  '[aria-label*=cookie i]',
  '[aria-label*=consent i]',
  'script',
  'style',
  'noscript',
  'template',
  'iframe',
  'svg',
].join(', ');

/** A class such as `<body class="cookie-banner-open">` must not take the page with it. */
const CONTENT = 'main, article, [role=main], h1';

const LANDMARK_CHROME = 'header, footer';

const BLOCK = new Set([
  'ADDRESS', 'ARTICLE', 'BLOCKQUOTE', 'BR', 'DD', 'DETAILS', 'DIV', 'DL', 'DT', 'FIELDSET', 'FIGCAPTION', 'FIGURE',
  'FOOTER', 'HEADER', 'HR', 'LI', 'MAIN', 'OL', 'P', 'PRE', 'SECTION', 'SUMMARY', 'TABLE', 'TBODY', 'TD', 'TFOOT', 'TH',
  'THEAD', 'TR', 'UL', 'CAPTION',
]);
const HEADING = /^H[1-6]$/;
const SKIPPED = new Set(['SCRIPT', 'STYLE', 'NOSCRIPT', 'TEMPLATE', 'SVG', 'BUTTON', 'SELECT', 'TEXTAREA']);

/** An absolute http(s) URL without its fragment, or null. */
export function absoluteHttpUrl(href: string | null | undefined, base: string): string | null {
  if (!href) return null;
  let url: URL;
  try {
    url = new URL(href.trim(), base);
  } catch {
    return null;
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return null;
  url.hash = '';
  return url.href;
}

/** `noindex`/`nofollow` in a robots directive list (`noindex, nofollow`, `none`). */
export function robotsDirectives(content: string): { noindex: boolean; nofollow: boolean } {
  const tokens = content.toLowerCase().split(/[\s,]+/).filter(Boolean);
  const none = tokens.includes('none');
  return { noindex: none || tokens.includes('noindex'), nofollow: none || tokens.includes('nofollow') };
}

/**
 * Text of a DOM subtree with block structure kept as lines and headings as Markdown ATX headings (`## Returns`), the
 * structure core's chunker (packages/core/src/store/chunking.ts) turns into each passage's heading trail.
 */
export function blockText(root: Node): string {
  // Strings are text; numbers are line breaks wanted there (1: a new line, 2: a blank line), merged when adjacent.
  const out: (string | number)[] = [];
  const walk = (node: Node): void => {
    if (node.nodeType === 3) {
      out.push((node.nodeValue ?? '').replace(/\s+/g, ' '));
      return;
    }
    if (node.nodeType !== 1 && node.nodeType !== 9 && node.nodeType !== 11) return;
    const element = node as Element;
    const tag = (element.tagName ?? '').toUpperCase();
    if (SKIPPED.has(tag)) return;
    if (tag === 'PRE') {
      out.push(2, element.textContent ?? '', 2);
      return;
    }
    const heading = HEADING.test(tag);
    const paragraph = heading || tag === 'P' || tag === 'PRE' || tag === 'BLOCKQUOTE' || tag === 'TABLE';
    const block = paragraph || BLOCK.has(tag);
    if (block) out.push(paragraph ? 2 : 1);
    if (heading) out.push(`${'#'.repeat(Number(tag[1]))} `);
    if (tag === 'LI') out.push('- ');
    for (const child of Array.from(node.childNodes)) walk(child);
    if (block) out.push(paragraph ? 2 : 1);
    else if (tag === 'TD' || tag === 'TH') out.push(' ');
  };
  walk(root);
  let text = '';
  let pending = 0;
  for (const part of out) {
    if (typeof part === 'number') {
      pending = Math.max(pending, part);
      continue;
    }
    if (pending > 0 && part.trim() !== '') {
      text += '\n'.repeat(pending);
      pending = 0;
    }
    text += part;
  }
  return text
    .split('\n')
    .map((line) => line.replace(/[ \t\u00a0]+/g, ' ').trim())
    .join('\n')
    .replace(/\n{3,}/g, '\n\n')
    .trim();
}

function attribute(document: Document, selector: string, name: string): string | null {
  return document.querySelector(selector)?.getAttribute(name) ?? null;
}

function robotsMeta(document: Document): { noindex: boolean; nofollow: boolean } {
  let noindex = false;
  let nofollow = false;
  for (const meta of Array.from(document.querySelectorAll('meta[name]'))) {
    const name = (meta.getAttribute('name') ?? '').toLowerCase();
    if (name !== 'robots' && name !== BOT_NAME.toLowerCase()) continue;
    const said = robotsDirectives(meta.getAttribute('content') ?? '');
    noindex ||= said.noindex;
    nofollow ||= said.nofollow;
  }
  return { noindex, nofollow };
}

function pageLinks(document: Document, base: string): string[] {
  const links = new Set<string>();
  for (const anchor of Array.from(document.querySelectorAll('a[href], area[href]'))) {
    const url = absoluteHttpUrl(anchor.getAttribute('href'), base);
    if (url) links.add(url);
  }
  return [...links];
}

function stripChrome(document: Document): void {
  for (const element of Array.from(document.querySelectorAll(CHROME))) {
    const tag = element.tagName.toUpperCase();
    if (tag === 'BODY' || tag === 'HTML' || element.querySelector(CONTENT)) continue;
    element.remove();
  }
  for (const element of Array.from(document.querySelectorAll(LANDMARK_CHROME))) {
    if (!element.parentElement?.closest('article, main, [role=main]')) element.remove();
  }
}

function cleanTitle(text: string | null | undefined): string {
  return (text ?? '').replace(/\s+/g, ' ').trim();
}

/**
 * Extracts an HTML page: its main content with Mozilla Readability over a linkedom DOM, after the page's landmarks
 * and consent banners are removed; title, canonical URL, robots meta and links from the whole page. `url` is the
 * page's address (relative links and `<base href>` resolve against it).
 */
export function extractHtml(html: string, url: string): HtmlExtract {
  // linkedom builds a document only around an <html> element; a fragment (an uploaded snippet) is wrapped in one.
  const whole = /<html[\s>]/i.test(html) ? html : `<!doctype html><html><head></head><body>${html}</body></html>`;
  const { document } = parseHTML(whole) as unknown as { document: Document };
  const baseHref = attribute(document, 'base[href]', 'href');
  const base = absoluteHttpUrl(baseHref, url) ?? url;
  const canonical = absoluteHttpUrl(attribute(document, 'link[rel~=canonical i][href]', 'href'), base);
  const links = pageLinks(document, base);
  const robots = robotsMeta(document);
  const documentTitle = cleanTitle(document.querySelector('title')?.textContent);

  stripChrome(document);
  const heading = cleanTitle(document.querySelector('main h1, article h1, [role=main] h1')?.textContent ?? document.querySelector('h1')?.textContent);
  const body = document.body ?? document.documentElement;
  const fallback = body ? blockText(body) : '';
  let text = fallback;
  let readabilityTitle = '';
  try {
    const article = new Readability(document, { charThreshold: 0, serializer: (node: Node) => node }).parse();
    const extracted = article?.content ? blockText(article.content) : '';
    readabilityTitle = cleanTitle(article?.title);
    // Readability drops the heading that repeats the title and any block it judges to be boilerplate. When it
    // finds nothing (an empty shell), the chrome-free body is the content.
    if (extracted !== '') text = extracted;
  } catch {
    text = fallback;
  }
  const title = heading || readabilityTitle || documentTitle;
  // Readability drops the heading that repeats the page title, or demotes it to `##`: the content starts with it as
  // the one `#` heading.
  const [firstLine = '', ...rest] = text.split('\n');
  if (heading && firstLine.replace(/^#+\s*/, '') === heading) text = [`# ${heading}`, ...rest].join('\n');
  else if (heading) text = `# ${heading}\n\n${text}`;
  return { title, text: text.trim(), canonical, links, ...robots };
}
