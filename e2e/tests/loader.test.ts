import { describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { VIEWPORTS } from '../support/browser.js';
import { useE2E } from '../support/setup.js';
import { browserStorage, openBubble, reply, sendMessage, widget, type SeenRequest } from '../support/widget.js';

// Issue 12: the loader draws the bubble, the panel loads lazily from the same origin, styles survive a strict CSP.
const env = useE2E();

const PANEL = /^\/widget-assets\/panel\.[\w-]{8,}\.js$/;
const panelRequests = (api: SeenRequest[]): SeenRequest[] => api.filter((r) => PANEL.test(r.path));

/** Computed styles inside the shadow root, for the element with this test id. */
const styleOf = (page: Page, testId: string, properties: string[]): Promise<Record<string, string>> =>
  page.evaluate(
    ([id, props]) => {
      const element = document.querySelector('svc-chat-widget')!.shadowRoot!.querySelector(`[data-testid="${id}"]`)!;
      const style = getComputedStyle(element);
      return Object.fromEntries(props.map((name) => [name, style.getPropertyValue(name)]));
    },
    [testId, properties] as const,
  );

describe('widget.js is a loader', () => {
  it('draws the bubble before the panel exists, and loads the panel once, from its own origin, when first opened', async () => {
    const { page, api } = await env.visit(env.embed('/lazy'));
    const w = widget(page);
    await w.launcher.waitFor({ state: 'visible' });
    // The panel may already be on its way (idle time): what matters is that the bubble did not wait for it.
    const early = panelRequests(api).length;
    expect(early).toBeLessThanOrEqual(1);
    await openBubble(page);
    await sendMessage(page, 'Do you ship to Canada?');
    expect(await reply(page, 1)).toMatch(/Canada/);
    const panels = panelRequests(api);
    expect(panels).toHaveLength(1);
    expect(new URL(panels[0]!.url).origin).toBe(env.service.url);
  });

  it('loads the panel when the browser is idle, before any open', async () => {
    const { page, api } = await env.visit(env.embed('/idle'));
    await widget(page).launcher.waitFor({ state: 'visible' });
    await expect.poll(() => panelRequests(api).length, { timeout: 8000 }).toBe(1);
    // Fetched is not yet evaluated and mounted: wait for the (hidden) panel itself.
    await expect.poll(() => widget(page).panel.count(), { timeout: 8000 }).toBe(1);
    expect(await widget(page).panel.isVisible()).toBe(false);
  });
});

describe.each(Object.entries(VIEWPORTS))('under a strict CSP, on a %s', (_name, viewport) => {
  it("renders styled with default-src 'self' (plus the widget's origin for scripts and the API), and works", async () => {
    const api = env.service.url;
    env.site.setScript('/start.js', 'Svc.bubble({});');
    const url = env.site.setPage(
      '/csp',
      `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>Strict shop</title></head>
<body><h1>Strict shop</h1>
<script src="${api}/widget.js" data-api-key="${env.service.publicKey}"></script>
<script src="/start.js"></script>
</body></html>`,
      { 'Content-Security-Policy': `default-src 'self'; script-src 'self' ${api}; connect-src ${api}` },
    );
    const { page, context } = await env.visit('about:blank', viewport);
    await context.addInitScript(() => {
      const seen: string[] = [];
      (window as unknown as { cspViolations: string[] }).cspViolations = seen;
      document.addEventListener('securitypolicyviolation', (event) => seen.push(`${event.violatedDirective} ${event.blockedURI}`));
    });
    await page.goto(url);
    const w = widget(page);
    await w.launcher.waitFor({ state: 'visible' });
    expect(await styleOf(page, 'svc-launcher', ['position', 'width', 'height', 'border-top-left-radius', 'background-color'])).toEqual({
      position: 'fixed',
      width: '56px',
      height: '56px',
      'border-top-left-radius': '50%',
      'background-color': 'rgb(99, 102, 241)',
    });
    await openBubble(page);
    const panel = await styleOf(page, 'svc-panel', ['display', 'position', 'background-color']);
    expect(panel).toEqual({ display: 'flex', position: 'fixed', 'background-color': 'rgb(255, 255, 255)' });
    await sendMessage(page, 'Do you ship to Canada?');
    expect(await reply(page, 1)).toMatch(/Canada/);
    expect(await page.evaluate(() => (window as unknown as { cspViolations: string[] }).cspViolations)).toEqual([]);
  });
});

describe('trust', () => {
  it('data-consent="required": nothing in storage until the visitor opens the chat, then the conversation is kept', async () => {
    const { page, api } = await env.visit(env.embed('/consent', { consent: 'required' }));
    const w = widget(page);
    await w.launcher.waitFor({ state: 'visible' });
    // Config read and panel loaded (idle): the widget is fully up, and still wrote nothing.
    await expect.poll(() => panelRequests(api).length, { timeout: 8000 }).toBe(1);
    expect((await browserStorage(page)).local).toEqual({});
    await openBubble(page);
    await sendMessage(page, 'Do you ship to Canada?');
    await reply(page, 1);
    expect(Object.keys((await browserStorage(page)).local).sort()).toEqual([expect.stringMatching(/^svc-widget:session:/), 'svc-widget:visitor']);
  });

  it('a reply that arrives while the panel is closed shows an unread badge on the launcher until it opens', async () => {
    const { page } = await env.visit(env.embed('/unread'));
    const w = widget(page);
    await openBubble(page);
    const release = env.service.hold();
    try {
      await sendMessage(page, 'Do you ship to Canada?');
      await w.typing.waitFor({ state: 'visible' });
      await w.id('svc-close').click();
      await w.panel.waitFor({ state: 'hidden' });
    } finally {
      release();
    }
    await expect.poll(() => w.id('svc-unread').textContent()).toBe('1');
    expect(await w.launcher.getAttribute('aria-label')).toBe('Open chat (1)');
    await openBubble(page);
    expect(await w.id('svc-unread').isVisible()).toBe(false);
  });
});
