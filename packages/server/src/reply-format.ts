import { Lexer, type Token, type Tokens } from 'marked';
import type { ReplyFormat } from '@svc/core';

/**
 * Reply formats per server key (spec 5.1.4, DESIGN.md section 4). The agent writes Markdown; channels that cannot
 * show it get it converted by a real Markdown parser (marked's lexer), never by regex surgery on the text.
 *
 * - `markdown`: unchanged.
 * - `text`: plain text; links as "label (url)", lists with "-" and "1.".
 * - `messenger`: plain text for Messenger-style chat bubbles; "•" bullets, links as "label: url".
 * - `whatsapp`: WhatsApp's own markup: *bold*, _italic_, ~strike~, `code`, ``` blocks ```.
 */
export function formatReply(markdown: string, format: ReplyFormat): string {
  if (format === 'markdown') return markdown;
  const style = STYLES[format];
  const tokens = new Lexer({ gfm: true }).lex(markdown);
  return blocks(tokens, style).trim().replace(/\n{3,}/g, '\n\n');
}

interface Style {
  strong(text: string): string;
  em(text: string): string;
  del(text: string): string;
  code(text: string): string;
  codeBlock(text: string): string;
  heading(text: string): string;
  link(label: string, href: string): string;
  bullet: string;
}

const plainLink = (label: string, href: string): string => {
  const url = href.replace(/^mailto:/, '');
  return label === url || label === href || label === '' ? url : `${label} (${url})`;
};

const same = (t: string): string => t;
const PLAIN: Style = { strong: same, em: same, del: same, code: same, codeBlock: same, heading: same, link: plainLink, bullet: '-' };

const STYLES: Record<Exclude<ReplyFormat, 'markdown'>, Style> = {
  text: PLAIN,
  messenger: {
    ...PLAIN,
    link: (label, href) => {
      const url = href.replace(/^mailto:/, '');
      return label === url || label === href || label === '' ? url : `${label}: ${url}`;
    },
    bullet: '•',
  },
  whatsapp: {
    strong: (t) => (t.trim() ? `*${t}*` : t),
    em: (t) => (t.trim() ? `_${t}_` : t),
    del: (t) => (t.trim() ? `~${t}~` : t),
    code: (t) => `\`${t}\``,
    codeBlock: (t) => `\`\`\`\n${t}\n\`\`\``,
    heading: (t) => `*${t}*`,
    link: plainLink,
    bullet: '-',
  },
};

function inline(tokens: Token[] | undefined, style: Style): string {
  if (!tokens) return '';
  return tokens
    .map((token) => {
      switch (token.type) {
        case 'strong':
          return style.strong(inline((token as Tokens.Strong).tokens, style));
        case 'em':
          return style.em(inline((token as Tokens.Em).tokens, style));
        case 'del':
          return style.del(inline((token as Tokens.Del).tokens, style));
        case 'codespan':
          return style.code(decode((token as Tokens.Codespan).text));
        case 'link': {
          const link = token as Tokens.Link;
          return style.link(inline(link.tokens, style), link.href);
        }
        case 'image': {
          const image = token as Tokens.Image;
          return style.link(image.text, image.href);
        }
        case 'br':
          return '\n';
        case 'text': {
          const text = token as Tokens.Text;
          return text.tokens ? inline(text.tokens, style) : decode(text.text);
        }
        case 'escape':
          return (token as Tokens.Escape).text;
        case 'html':
          // Raw HTML from a model is not markup on these channels: keep what a person would read.
          return (token as Tokens.HTML).text.replace(/<[^>]*>/g, '');
        default:
          return 'text' in token && typeof token.text === 'string' ? decode(token.text) : token.raw;
      }
    })
    .join('');
}

function list(token: Tokens.List, style: Style, depth: number): string {
  const start = typeof token.start === 'number' ? token.start : 1;
  return token.items
    .map((item, index) => {
      const marker = token.ordered ? `${start + index}.` : style.bullet;
      const indent = '  '.repeat(depth);
      const parts: string[] = [];
      for (const child of item.tokens) {
        if (child.type === 'list') parts.push(`\n${list(child as Tokens.List, style, depth + 1)}`);
        else if (child.type === 'text' || child.type === 'paragraph') parts.push(inline((child as Tokens.Text).tokens ?? [child], style));
        else parts.push(blocks([child], style).trim());
      }
      const check = item.task ? (item.checked ? '[x] ' : '[ ] ') : '';
      return `${indent}${marker} ${check}${parts.join('')}`;
    })
    .join('\n');
}

function blocks(tokens: Token[], style: Style): string {
  return tokens
    .map((token) => {
      switch (token.type) {
        case 'paragraph':
          return `${inline((token as Tokens.Paragraph).tokens, style)}\n\n`;
        case 'heading':
          return `${style.heading(inline((token as Tokens.Heading).tokens, style))}\n\n`;
        case 'list':
          return `${list(token as Tokens.List, style, 0)}\n\n`;
        case 'code':
          return `${style.codeBlock((token as Tokens.Code).text)}\n\n`;
        case 'blockquote':
          return `${blocks((token as Tokens.Blockquote).tokens, style)
            .trim()
            .split('\n')
            .map((line) => `> ${line}`)
            .join('\n')}\n\n`;
        case 'hr':
          return '---\n\n';
        case 'table': {
          const table = token as Tokens.Table;
          const row = (cells: Tokens.TableCell[]): string => cells.map((cell) => inline(cell.tokens, style)).join(' | ');
          return `${[row(table.header), ...table.rows.map(row)].join('\n')}\n\n`;
        }
        case 'space':
          return '';
        case 'html':
          return `${(token as Tokens.HTML).text.replace(/<[^>]*>/g, '').trim()}\n\n`;
        case 'text':
          return `${inline((token as Tokens.Text).tokens ?? [token], style)}\n\n`;
        default:
          return `${token.raw}\n\n`;
      }
    })
    .join('');
}

const ENTITIES: Record<string, string> = { '&amp;': '&', '&lt;': '<', '&gt;': '>', '&quot;': '"', '&#39;': "'" };

/** marked escapes entities in text tokens for HTML output; plain channels want the characters back. */
function decode(text: string): string {
  return text.replace(/&(amp|lt|gt|quot|#39);/g, (entity) => ENTITIES[entity] ?? entity);
}
