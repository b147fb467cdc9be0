import { describe, expect, it } from 'vitest';
import { chunkDocument } from './chunking.js';

describe('chunkDocument', () => {
  it('splits on headings and prefixes each passage with its heading trail', () => {
    const chunks = chunkDocument('Intro line.\n\n# Shipping\n\nWe ship to Canada.\n\n## Costs\n\nFree over $50.\n\n# Returns\n\n30 days.');
    expect(chunks).toEqual([
      { position: 0, heading: null, content: 'Intro line.' },
      { position: 1, heading: 'Shipping', content: 'Shipping\n\nWe ship to Canada.' },
      { position: 2, heading: 'Shipping › Costs', content: 'Shipping › Costs\n\nFree over $50.' },
      { position: 3, heading: 'Returns', content: 'Returns\n\n30 days.' },
    ]);
  });

  it('packs short paragraphs of one section together and splits long sections at paragraphs', () => {
    const paragraph = (n: number): string => `Paragraph ${n} ${'word '.repeat(30).trim()}.`;
    const content = ['# Guide', ...Array.from({ length: 8 }, (_, i) => paragraph(i + 1))].join('\n\n');
    const chunks = chunkDocument(content, { maxChars: 400 });
    expect(chunks.length).toBeGreaterThan(1);
    for (const chunk of chunks) {
      expect(chunk.content.length).toBeLessThanOrEqual(400);
      expect(chunk.content.startsWith('Guide\n\n')).toBe(true);
    }
    // Nothing lost, nothing duplicated, order kept.
    const bodies = chunks.map((chunk) => chunk.content.slice('Guide\n\n'.length)).join('\n\n');
    expect(bodies).toBe(Array.from({ length: 8 }, (_, i) => paragraph(i + 1)).join('\n\n'));
  });

  it('cuts an over-long paragraph at sentences, then words', () => {
    const sentence = 'This sentence has exactly enough words to matter here.';
    const chunks = chunkDocument(Array.from({ length: 40 }, () => sentence).join(' '), { maxChars: 200 });
    expect(chunks.length).toBeGreaterThan(5);
    for (const chunk of chunks) {
      expect(chunk.content.length).toBeLessThanOrEqual(200);
      expect(chunk.content.endsWith('.')).toBe(true);
    }
    const unbroken = chunkDocument('x'.repeat(250), { maxChars: 100 });
    expect(unbroken.map((chunk) => chunk.content.length)).toEqual([100, 100, 50]);
  });

  it('ignores headings and blank lines inside fenced code', () => {
    const chunks = chunkDocument('# Install\n\n```sh\n# not a heading\n\nnpm i svc\n```\n\nDone.');
    expect(chunks).toEqual([{ position: 0, heading: 'Install', content: 'Install\n\n```sh\n# not a heading\n\nnpm i svc\n```\n\nDone.' }]);
  });

  it('returns no passage for blank content and handles CRLF line ends', () => {
    expect(chunkDocument('  \n\n\t\n')).toEqual([]);
    expect(chunkDocument('# A\r\n\r\nText\r\n')).toEqual([{ position: 0, heading: 'A', content: 'A\n\nText' }]);
  });
});
