import { describe, expect, it } from 'vitest';
import { extractHtml } from './html.js';

/** A short help-centre answer inside typical chrome. */
const SHORT = `<!doctype html><html><head><title>Gift cards | Help</title><base href="https://help.example/en/"></head>
<body class="cookie-banner-visible">
<header><a href="/">Help</a> HEADER-CHROME</header>
<nav><a href="faq">FAQ</a> NAV-CHROME</nav>
<div class="cookie-banner" id="cookie-consent"><p>COOKIE-CHROME This website uses cookies to ensure you get the best experience on our website. Learn more about our cookie policy.</p><a href="cookies">Learn more</a></div>
<main><article><h1>Gift cards</h1><p>Gift cards never expire and work online and in stores.</p><ul><li>Balance: on the card's page</li><li>Refunds: not possible</li></ul>
<p>See <a href="../terms#gift">the terms</a> or <a href="mailto:help@example.com">write to us</a> or <a href="javascript:void(0)">chat</a>.</p></article></main>
<div role="complementary">ASIDE-CHROME</div>
<footer>FOOTER-CHROME</footer>
</body></html>`;

describe('main content extraction', () => {
  it('keeps the answer and nothing of the chrome, with headings and list items as lines', () => {
    const page = extractHtml(SHORT, 'https://help.example/en/gift-cards');
    expect(page.title).toBe('Gift cards');
    expect(page.text).toBe(
      '# Gift cards\n\nGift cards never expire and work online and in stores.\n\n- Balance: on the card\'s page\n- Refunds: not possible\n\nSee the terms or write to us or chat.',
    );
    expect(page.links).toEqual(['https://help.example/', 'https://help.example/en/faq', 'https://help.example/en/cookies', 'https://help.example/terms']);
  });

  it('keeps a page whose whole body sits in a form (ASP.NET style) and an article header', () => {
    const html = `<html><body><form id="aspnetForm"><div id="cookie-bar">COOKIE-CHROME Cookies help us.</div>
      <article><header><h1>Stove safety</h1><p>Updated in May</p></header><p>Never cook inside a tent.</p></article></form></body></html>`;
    const page = extractHtml(html, 'https://shop.example/stoves');
    expect(page.text).toBe('# Stove safety\n\nUpdated in May\n\nNever cook inside a tent.');
  });

  it('reads the canonical link and the robots meta for every crawler or ours', () => {
    const head = (meta: string): string => `<html><head><link rel="Canonical" href="/a/1?x=1#top">${meta}</head><body><p>Body text.</p></body></html>`;
    expect(extractHtml(head(''), 'https://s.example/a/1?utm_source=x')).toMatchObject({ canonical: 'https://s.example/a/1?x=1', noindex: false, nofollow: false });
    expect(extractHtml(head('<meta name="robots" content="none">'), 'https://s.example/')).toMatchObject({ noindex: true, nofollow: true });
    expect(extractHtml(head('<meta name="SvcConversationsBot" content="noindex">'), 'https://s.example/')).toMatchObject({ noindex: true, nofollow: false });
    expect(extractHtml(head('<meta name="googlebot" content="noindex">'), 'https://s.example/')).toMatchObject({ noindex: false });
  });
});
