import { describe, expect, it } from 'vitest';
import { canonicalUrl, scopePrefix, sourceScope } from './urls.js';

describe('canonicalUrl', () => {
  it('drops the fragment, credentials, default port and tracking parameters, and lower-cases the host', () => {
    expect(canonicalUrl('HTTPS://Help.Example.COM:443/Guides/Start?utm_source=mail&page=2&gclid=x&UTM_Campaign=y&ref=nav&fbclid=1#install')).toBe(
      'https://help.example.com/Guides/Start?page=2',
    );
    expect(canonicalUrl('http://user:pw@example.com:80/a?msclkid=1&mc_cid=2&mc_eid=3&_ga=4')).toBe('http://example.com/a');
    expect(canonicalUrl('http://example.com:8080')).toBe('http://example.com:8080/');
  });

  it('keeps other parameters in their order and encoding, and resolves relative links', () => {
    expect(canonicalUrl('https://example.com/s?q=a%20b&sort=new&referrer=x')).toBe('https://example.com/s?q=a%20b&sort=new&referrer=x');
    expect(canonicalUrl('../b#top', 'https://example.com/help/a/')).toBe('https://example.com/help/b');
  });

  it('refuses other schemes, garbage and overlong URLs', () => {
    expect(canonicalUrl('mailto:help@example.com')).toBeNull();
    expect(canonicalUrl('javascript:alert(1)')).toBeNull();
    expect(canonicalUrl('not a url')).toBeNull();
    expect(canonicalUrl(`https://example.com/${'a'.repeat(2000)}`)).toBeNull();
  });
});

describe('sourceScope', () => {
  it('is the start URL’s host and path prefix, plus sitemaps on that host', () => {
    const inScope = sourceScope({ url: 'https://example.com/help', include: [], exclude: [] });
    expect(scopePrefix(new URL('https://example.com/help'))).toBe('/help/');
    expect(inScope('https://example.com/help')).toBe(true);
    expect(inScope('https://example.com/help/articles/1')).toBe(true);
    expect(inScope('https://example.com/helpdesk')).toBe(false);
    expect(inScope('https://example.com/blog/1')).toBe(false);
    expect(inScope('https://other.example.com/help/1')).toBe(false);
    expect(inScope('https://example.com/sitemap.xml')).toBe(true);
  });

  it('takes a sitemap’s folder as the prefix', () => {
    const inScope = sourceScope({ url: 'https://example.com/docs/sitemap.xml', include: [], exclude: [] });
    expect(inScope('https://example.com/docs/install')).toBe(true);
    expect(inScope('https://example.com/shop')).toBe(false);
  });

  it('follows include patterns instead when given, and exclude wins', () => {
    const inScope = sourceScope({
      url: 'https://example.com/help/',
      include: ['/faq/', 'https://docs.example.com/v2/', '*/guides/*'],
      exclude: ['*/guides/internal/*', '/faq/drafts'],
    });
    expect(inScope('https://example.com/help/a')).toBe(false);
    expect(inScope('https://example.com/faq/returns')).toBe(true);
    expect(inScope('https://example.com/faq/drafts/1')).toBe(false);
    expect(inScope('https://docs.example.com/v2/api')).toBe(true);
    expect(inScope('https://docs.example.com/v1/api')).toBe(false);
    expect(inScope('https://anywhere.example.net/guides/setup')).toBe(true);
    expect(inScope('https://example.com/guides/internal/x')).toBe(false);
  });
});
