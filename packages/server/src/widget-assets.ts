import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import type { Hono } from 'hono';
import { defaultIds, sha256Hex, SvcError, randomBase62, type Store } from '@svc/core';
import type { AppEnv } from './http/auth.js';
import { demoPageHtml } from './demo-page.js';

/** Where the built widget bundle lives: `@svc/widget`'s `dist/widget.js`. */
export function widgetBundlePath(): string {
  return createRequire(import.meta.url).resolve('@svc/widget/widget.js');
}

/**
 * `/widget.js` (the embeddable bundle, spec 4.9) and `/demo` (a sample shop page with the bubble, using a demo
 * public key allowed for the origin the page is served from). The bundle is read once and kept in memory.
 */
export function widgetRoutes(store: Store): (app: Hono<AppEnv>) => void {
  let bundle: Promise<string> | undefined;
  const loadBundle = (): Promise<string> => {
    bundle ??= readFile(widgetBundlePath(), 'utf8').catch((error: unknown) => {
      bundle = undefined;
      throw error;
    });
    return bundle;
  };

  return (app) => {
    app.get('/widget.js', async (c) => {
      let js: string;
      try {
        js = await loadBundle();
      } catch {
        throw new SvcError('not_found', 'widget.js is not built; run `pnpm --filter @svc/widget build` (pnpm start does it).');
      }
      return c.body(js, 200, {
        'Content-Type': 'text/javascript; charset=utf-8',
        'Cache-Control': 'public, max-age=300',
        // Sites embedding the widget may run with Cross-Origin-Embedder-Policy.
        'Cross-Origin-Resource-Policy': 'cross-origin',
      });
    });

    app.get('/demo', async (c) => {
      const origin = new URL(c.req.url).origin;
      const demo = await demoPublicKey(store, origin);
      if (!demo) {
        throw new SvcError('not_found', 'The demo widget is not seeded in this database (SVC_SEED_DEMO was off on the first start).');
      }
      return c.html(demoPageHtml({ publicKey: demo, origin }));
    });
  };
}

/**
 * The demo page's public key for one origin, created on first use. Public keys are public by design (the page
 * embeds it), so keeping its text as a setting exposes nothing a visitor of the page does not see anyway.
 */
export async function demoPublicKey(store: Store, origin: string): Promise<string | null> {
  const widgetId = await store.getOrCreateSetting('demo_widget_id', () => '');
  if (!widgetId) return null;
  const widget = await store.getWidget(widgetId);
  if (!widget) return null;
  const key = await store.getOrCreateSetting(`demo_public_key:${origin}`, () => `pk_live_${randomBase62(32)}`);
  const hash = await sha256Hex(key);
  if (!(await store.findApiKeyByHash(hash))) {
    await store.insertApiKey({
      id: defaultIds.random('key'),
      accountId: widget.accountId,
      kind: 'public',
      prefix: key.slice(0, 12),
      hash,
      scopes: ['conversations:chat'],
      callbackUrl: null,
      callbackSecret: null,
      replyFormat: 'markdown',
      widgetId: widget.id,
      allowedOrigins: [origin],
      createdAt: new Date(),
      revokedAt: null,
    });
  }
  return key;
}
