import { describe, expect, it } from 'vitest';
import { formatReply } from './reply-format.js';

const cases: { name: string; markdown: string; text: string; messenger: string; whatsapp: string }[] = [
  {
    name: 'emphasis',
    markdown: 'This is **bold**, *italic* and ~~gone~~.',
    text: 'This is bold, italic and gone.',
    messenger: 'This is bold, italic and gone.',
    whatsapp: 'This is *bold*, _italic_ and ~gone~.',
  },
  {
    name: 'links',
    markdown: 'See [our shipping page](https://shop.example/shipping) or <https://shop.example>.',
    text: 'See our shipping page (https://shop.example/shipping) or https://shop.example.',
    messenger: 'See our shipping page: https://shop.example/shipping or https://shop.example.',
    whatsapp: 'See our shipping page (https://shop.example/shipping) or https://shop.example.',
  },
  {
    name: 'bullet list',
    markdown: 'Options:\n\n- Trail Tent\n- **Summit** Tent\n',
    text: 'Options:\n\n- Trail Tent\n- Summit Tent',
    messenger: 'Options:\n\n• Trail Tent\n• Summit Tent',
    whatsapp: 'Options:\n\n- Trail Tent\n- *Summit* Tent',
  },
  {
    name: 'ordered and nested list',
    markdown: '1. Pack\n   - tent\n2. Ship',
    text: '1. Pack\n  - tent\n2. Ship',
    messenger: '1. Pack\n  • tent\n2. Ship',
    whatsapp: '1. Pack\n  - tent\n2. Ship',
  },
  {
    name: 'headings',
    markdown: '## Returns\n\nWithin 30 days.',
    text: 'Returns\n\nWithin 30 days.',
    messenger: 'Returns\n\nWithin 30 days.',
    whatsapp: '*Returns*\n\nWithin 30 days.',
  },
  {
    name: 'code',
    markdown: 'Use code `SUMMER10`:\n\n```\ncurl https://x\n```',
    text: 'Use code SUMMER10:\n\ncurl https://x',
    messenger: 'Use code SUMMER10:\n\ncurl https://x',
    whatsapp: 'Use code `SUMMER10`:\n\n```\ncurl https://x\n```',
  },
  {
    name: 'entities and raw html',
    markdown: 'Tom & Jerry <b>say</b> "hi" <script>x()</script>',
    text: 'Tom & Jerry say "hi" x()',
    messenger: 'Tom & Jerry say "hi" x()',
    whatsapp: 'Tom & Jerry say "hi" x()',
  },
  {
    name: 'mailto link',
    markdown: 'Write to [support](mailto:help@shop.example).',
    text: 'Write to support (help@shop.example).',
    messenger: 'Write to support: help@shop.example.',
    whatsapp: 'Write to support (help@shop.example).',
  },
];

describe('reply formats (spec 5.1.4)', () => {
  it.each(cases)('$name', ({ markdown, text, messenger, whatsapp }) => {
    expect(formatReply(markdown, 'markdown')).toBe(markdown);
    expect(formatReply(markdown, 'text')).toBe(text);
    expect(formatReply(markdown, 'messenger')).toBe(messenger);
    expect(formatReply(markdown, 'whatsapp')).toBe(whatsapp);
  });
});
