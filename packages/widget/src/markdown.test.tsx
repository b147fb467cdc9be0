import { render } from '@testing-library/preact';
import { describe, expect, it } from 'vitest';
import { expectInert } from '../test/inert.js';
import { XSS_PAYLOADS } from '../test/xss-corpus.js';
import { Markdown, plainText } from './markdown.js';

const html = (text: string): string => render(<Markdown text={text} />).container.innerHTML;

describe('Markdown', () => {
  it('renders paragraphs with line breaks, bold, italic and inline code', () => {
    expect(html('Hello **big** and *small* and _also_ `x < y`\nnext line\n\nSecond')).toBe(
      '<div><p>Hello <strong>big</strong> and <em>small</em> and <em>also</em> <code>x &lt; y</code><br>next line</p><p>Second</p></div>',
    );
  });

  it('renders headings below the page outline, lists and fenced code', () => {
    const out = html('# Title\n## Sub\n- one\n- two\n  continued\n\n3. three\n4. four\n\n```js\nconst a = "<b>";\n```');
    expect(out).toContain('<h3>Title</h3><h4>Sub</h4>');
    expect(out).toContain('<ul><li>one</li><li>two<br>continued</li></ul>');
    expect(out).toContain('<ol start="3"><li>three</li><li>four</li></ol>');
    expect(out).toContain('<pre><code>const a = "&lt;b&gt;";</code></pre>');
  });

  it('nests lists by indentation (issue 12, defect 5), numbers inside bullets and the reverse', () => {
    const out = html('- Tents\n  - Trailhead 2\n  - Ridge 3\n    1. poles\n    2. pegs\n- Boots\n\n1. First\n   - detail\n2. Second');
    expect(out).toContain('<ul><li>Tents<ul><li>Trailhead 2</li><li>Ridge 3<ol><li>poles</li><li>pegs</li></ol></li></ul></li><li>Boots</li></ul>');
    expect(out).toContain('<ol><li>First<ul><li>detail</li></ul></li><li>Second</li></ol>');
  });

  it('renders links that open in a new tab without opener or referrer', () => {
    const { container } = render(<Markdown text="See [our shop](https://shop.example/tents?a=1) or mail@example.com via [mail](mailto:hi@example.com)." />);
    const links = [...container.querySelectorAll('a')];
    expect(links.map((link) => [link.textContent, link.getAttribute('href')])).toEqual([
      ['our shop', 'https://shop.example/tents?a=1'],
      ['mail', 'mailto:hi@example.com'],
    ]);
    for (const link of links) {
      expect(link.getAttribute('target')).toBe('_blank');
      expect(link.getAttribute('rel')).toBe('noopener noreferrer');
    }
  });

  it('links bare URLs without the sentence punctuation after them', () => {
    const { container } = render(<Markdown text="Visit https://shop.example/a_(b) and (https://shop.example/c)." />);
    expect([...container.querySelectorAll('a')].map((link) => link.getAttribute('href'))).toEqual([
      'https://shop.example/a_(b)',
      'https://shop.example/c',
    ]);
    expect(container.textContent).toBe('Visit https://shop.example/a_(b) and (https://shop.example/c).');
  });

  it('keeps snake_case, escaped markers and raw HTML as text', () => {
    expect(html('use snake_case_names and \\*stars\\* and <b>bold</b>')).toBe(
      '<div><p>use snake_case_names and *stars* and &lt;b&gt;bold&lt;/b&gt;</p></div>',
    );
  });

  it('shows the label of a link whose target is not allowed, without a link', () => {
    const { container } = render(<Markdown text="[click me](javascript:alert(1))" />);
    expect(container.querySelector('a')).toBeNull();
    expect(container.textContent).toBe('click me');
  });

  it(`renders each of the ${XSS_PAYLOADS.length} payloads of the XSS corpus inert`, () => {
    expect(XSS_PAYLOADS.length).toBeGreaterThanOrEqual(30);
    for (const payload of XSS_PAYLOADS) {
      const { container, unmount } = render(<Markdown text={payload} />);
      expectInert(container);
      // Images in replies are never loaded, whatever their URL.
      expect(container.querySelector('img')).toBeNull();
      unmount();
    }
  });

  it('stays fast on hostile input (thousands of unclosed markers)', () => {
    const hostile = ['*'.repeat(5000), '_a'.repeat(3000), '`'.repeat(4000), '['.repeat(3000) + '](', '**a'.repeat(2000), '# ' + ' '.repeat(5000) + '#'];
    const started = performance.now();
    for (const text of hostile) render(<Markdown text={text} />).unmount();
    expect(performance.now() - started).toBeLessThan(2000);
  });

  it('gives screen readers the text without Markdown syntax', () => {
    expect(plainText('## Tents\n**Trail** tent: [see it](https://x.example) `now`')).toBe('Tents Trail tent: see it now');
  });
});
