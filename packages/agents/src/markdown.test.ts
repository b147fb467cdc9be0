import { describe, expect, it } from 'vitest';
import { escapeMarkdown, markdownLink } from './markdown.js';

describe('escapeMarkdown', () => {
  it('escapes link, image, HTML and emphasis syntax', () => {
    expect(escapeMarkdown('![x](https://evil.example) <b>*hi*</b> _a_ `c` ~s~ a|b &amp;')).toBe(
      '!\\[x\\]\\(https://evil.example\\) \\<b\\>\\*hi\\*\\</b\\> \\_a\\_ \\`c\\` \\~s\\~ a\\|b \\&amp;',
    );
  });

  it('escapes backslashes first, so an escape cannot be undone', () => {
    expect(escapeMarkdown('\\[x]')).toBe('\\\\\\[x\\]');
  });

  it('folds line breaks so the text cannot start a block', () => {
    expect(escapeMarkdown('one\n# two\n\n- three')).toBe('one # two - three');
  });
});

describe('markdownLink', () => {
  it('links http(s) URLs', () => {
    expect(markdownLink('Returns', 'https://shop.example/help/returns')).toBe('[Returns](https://shop.example/help/returns)');
  });

  it('encodes parentheses and spaces in the URL', () => {
    expect(markdownLink('A', 'https://shop.example/a (b)')).toBe('[A](https://shop.example/a%20%28b%29)');
  });

  it.each(['javascript:alert(1)', 'data:text/html,<b>', 'not a url', '', null, undefined])('does not link %j', (url) => {
    expect(markdownLink('Title [1]', url)).toBe('Title \\[1\\]');
  });
});
