import { createElement, type ComponentChildren, type VNode } from 'preact';
import { safeLinkUrl } from './safe-url.js';

/**
 * A small Markdown renderer that builds Preact nodes, never HTML strings. Model output becomes text nodes; the only
 * elements it can produce are the fixed ones below, and the only attribute taken from the text is a link's `href`,
 * which passes `safeLinkUrl`. Raw HTML in a reply is shown as text. That makes it safe by construction, where a
 * "Markdown to HTML, then sanitise" pipeline is only as safe as its sanitiser.
 *
 * Supported: paragraphs (single newlines are line breaks, as people type them in chat), headings, bold, italic,
 * inline code, fenced code blocks, links and bare http(s) URLs, bullet and numbered lists. Other syntax shows as
 * text. An image `![alt](url)` shows as "!" and a link: a reply never makes the browser fetch a third-party image.
 */

/** Nesting limit for emphasis and links: deeper input is shown as text, so hostile input cannot exhaust the stack. */
const MAX_DEPTH = 6;

/**
 * One inline token per match. Every quantifier is bounded, so on hostile input (thousands of unclosed `*`) each
 * attempt looks a bounded distance ahead and rendering stays fast. No lookbehind: older Safari cannot parse it.
 */
const INLINE = new RegExp(
  [
    /\\([!-/:-@[-`{-~])/, // 1: escaped punctuation
    /`([^`\n]{1,1000})`/, // 2: code
    /\*\*(?=\S)([^]{0,2000}?\S)\*\*/, // 3: strong
    /__(?=\S)([^]{0,2000}?\S)__(?!\w)/, // 4: strong
    /\*(?=[^\s*])([^*]{0,2000}?[^\s*])\*/, // 5: emphasis
    /_(?=[^\s_])([^_]{0,2000}?[^\s_])_(?!\w)/, // 6: emphasis
    // 7: label, 8: target (which may hold balanced parentheses, as Wikipedia's do)
    /\[([^\]\n]{1,500})\]\(\s*<?((?:[^\s<>()]|\([^\s<>()]*\)){1,2000})>?(?:\s+"[^"\n]{0,500}")?\s*\)/,
    /(https?:\/\/[^\s<>"]{1,2000})/, // 9: bare URL
  ]
    .map((part) => part.source)
    .join('|'),
  'gi',
);

const FENCE = /^ {0,3}(`{3,}|~{3,})/;
const HEADING = /^ {0,3}(#{1,6})(?:[ \t]+(.*))?$/;
/** A list item: group 1 is the number of an ordered item, group 2 the text. */
const ITEM = /^\s*(?:[-*+]|(\d{1,9})[.)])[ \t]+(.*)$/;

const link = (href: string, children: ComponentChildren): VNode => (
  <a href={href} target="_blank" rel="noopener noreferrer">
    {children}
  </a>
);

/** Inline Markdown of one block as Preact children: strings (text nodes) and the elements above. */
export function inlineNodes(text: string, depth = 0, inLink = false): ComponentChildren[] {
  const out: ComponentChildren[] = [];
  const pattern = new RegExp(INLINE);
  let last = 0;
  let match: RegExpExecArray | null;
  const nested = (inner: string, linked = inLink): ComponentChildren[] =>
    depth < MAX_DEPTH ? inlineNodes(inner, depth + 1, linked) : [inner];
  while ((match = pattern.exec(text))) {
    const [whole, escaped, code] = match;
    const [strong, em, label, target, url] = [match[3] ?? match[4], match[5] ?? match[6], match[7], match[8], match[9]];
    let node: ComponentChildren = null;
    let end = match.index + whole.length;
    if (escaped) node = escaped;
    else if (code) node = <code>{code}</code>;
    else if (match[6] && /\w/.test(text[match.index - 1] ?? '')) node = '_'; // snake_case stays literal
    else if (strong) node = <strong>{nested(strong)}</strong>;
    else if (em) node = <em>{nested(em)}</em>;
    else if (label && !inLink) {
      const href = safeLinkUrl(target);
      node = href ? link(href, nested(label, true)) : <span>{nested(label)}</span>;
    } else if (url && !inLink) {
      // Trailing punctuation belongs to the sentence, and `)` too unless the URL opened one.
      let trimmed = url;
      while (/[.,;:!?'*_]$/.test(trimmed) || (trimmed.endsWith(')') && !trimmed.includes('('))) trimmed = trimmed.slice(0, -1);
      end = match.index + trimmed.length;
      const href = safeLinkUrl(trimmed);
      if (href) node = link(href, trimmed);
    }
    if (node === null) {
      node = whole[0]!;
      end = match.index + 1;
    }
    out.push(text.slice(last, match.index), node);
    last = pattern.lastIndex = end;
  }
  out.push(text.slice(last));
  // Single newlines inside a paragraph are line breaks.
  return out.flatMap((part): ComponentChildren[] =>
    typeof part === 'string' ? part.split('\n').flatMap((line, i) => (i ? [<br />, line] : [line])) : [part],
  );
}

const startsBlock = (line: string): boolean => FENCE.test(line) || HEADING.test(line) || ITEM.test(line);

/** Leading whitespace, a tab counting as 4 spaces. */
const indentOf = (line: string): number => /^\s*/.exec(line)![0].replace(/\t/g, '    ').length;

/** The lines without the indentation they all share (a nested list's own). */
function dedent(lines: string[]): string[] {
  const shared = Math.min(...lines.filter((line) => line.trim()).map(indentOf));
  return lines.map((line) => line.replace(/\t/g, '    ').slice(shared));
}

/** Block structure; `depth` counts list nesting, bounded like inline nesting. */
function blocks(lines: readonly string[], depth = 0): ComponentChildren[] {
  const out: ComponentChildren[] = [];
  let i = 0;
  while (i < lines.length) {
    const line = lines[i]!;
    let match: RegExpExecArray | null;
    if (!line.trim()) {
      i++;
    } else if ((match = FENCE.exec(line))) {
      const marker = match[1]!;
      const body: string[] = [];
      for (i++; i < lines.length && !lines[i]!.trim().startsWith(marker); i++) body.push(lines[i]!);
      i++;
      out.push(
        <pre>
          <code>{body.join('\n')}</code>
        </pre>,
      );
    } else if ((match = HEADING.exec(line))) {
      // A reply's `#` is a section inside a chat bubble, below the page's own headings: start at h3.
      out.push(createElement(`h${Math.min(match[1]!.length + 2, 6)}`, null, inlineNodes(match[2] ?? '')));
      i++;
    } else if ((match = ITEM.exec(line))) {
      const ordered = match[1];
      const base = indentOf(line);
      const items: { text: string; body: string[] }[] = [];
      for (; i < lines.length; i++) {
        const current = lines[i]!;
        const item = ITEM.exec(current);
        const last = items[items.length - 1];
        if (item && indentOf(current) <= base) {
          // A bullet after numbers (or the reverse) starts a new list.
          if (!item[1] !== !ordered) break;
          items.push({ text: item[2]!, body: [] });
        } else if (last && current.trim() && indentOf(current) > base) {
          // Indented under an item: a nested list (or code, a heading) from there on, else more of its text.
          if (last.body.length || startsBlock(current)) last.body.push(current);
          else last.text += `\n${current.trim()}`;
        } else break;
      }
      const children = items.map(({ text, body }) => (
        <li>
          {inlineNodes(text)}
          {body.length > 0 && (depth < MAX_DEPTH ? blocks(dedent(body), depth + 1) : body.join('\n'))}
        </li>
      ));
      const start = Number(ordered);
      out.push(ordered ? <ol start={start === 1 ? undefined : start}>{children}</ol> : <ul>{children}</ul>);
    } else {
      const paragraph = [line];
      for (i++; i < lines.length && lines[i]!.trim() && !startsBlock(lines[i]!); i++) paragraph.push(lines[i]!);
      out.push(<p>{inlineNodes(paragraph.join('\n'))}</p>);
    }
  }
  return out;
}

export function Markdown({ text }: { text: string }): VNode {
  return (
    <div>
      {blocks(text.replace(/\r\n?/g, '\n').split('\n'))}
    </div>
  );
}

/** The text a screen reader should hear for a reply: link targets and Markdown's marker characters removed. */
export function plainText(markdown: string): string {
  return markdown.replace(/\]\([^)\n]*\)|[[*_`~#>]+/g, '').replace(/\s+/g, ' ').trim();
}
