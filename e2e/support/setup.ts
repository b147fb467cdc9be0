import { afterAll, afterEach, beforeAll, expect } from 'vitest';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { collectPageErrors, launchBrowser, newContext, type Viewport } from './browser.js';
import { embedPage, type EmbedOptions } from './pages.js';
import { startPageServer, type PageServer } from './page-server.js';
import { startService, type Service, type ServiceOptions } from './service.js';
import { recordFailures, recordRequests, type SeenRequest } from './widget.js';

export interface Visit {
  context: BrowserContext;
  page: Page;
  /** Uncaught errors on the page so far; the test fails after the fact if there are any. */
  errors: string[];
  /** Every request the page sent, from the first one on (any origin). */
  requests: SeenRequest[];
  /** The requests to the service only. */
  api: SeenRequest[];
  /** The service's answers of 400 and above, with their bodies. */
  failures: string[];
}

export interface E2E {
  service: Service;
  site: PageServer;
  browser: Browser;
  /** Publishes a page of the site embedding the widget with the test's public key; returns its URL. */
  embed(path: string, options?: Omit<EmbedOptions, 'api' | 'apiKey'>): string;
  /** A new visitor (fresh context) on `url`, closed after the test. */
  visit(url: string, viewport?: Viewport): Promise<Visit>;
}

/**
 * The file's world, made once before its tests: the site (pages and identity endpoint) on one origin, the service
 * on another, one Chromium. Each test gets a fresh browser context from `visit`, so no visitor state carries over.
 */
export function useE2E(options: Omit<ServiceOptions, 'pageOrigin'> = {}): E2E {
  const env = {} as E2E;
  const visits: Visit[] = [];

  beforeAll(async () => {
    const site = await startPageServer();
    const [service, browser] = await Promise.all([startService({ ...options, pageOrigin: site.origin }), launchBrowser()]);
    site.identity.secret = service.identitySecret;
    Object.assign(env, {
      site,
      service,
      browser,
      embed: (path, embedOptions = {}) => site.setPage(path, embedPage({ api: service.url, apiKey: service.publicKey, ...embedOptions })),
      async visit(url, viewport) {
        const context = await newContext(browser, viewport);
        const page = await context.newPage();
        const visit: Visit = {
          context,
          page,
          errors: collectPageErrors(page),
          requests: recordRequests(page),
          api: recordRequests(page, service.url),
          failures: recordFailures(page, service.url),
        };
        visits.push(visit);
        await page.goto(url);
        return visit;
      },
    } satisfies E2E);
  });

  afterEach(async () => {
    const done = visits.splice(0);
    await Promise.all(done.map((visit) => visit.context.close()));
    for (const visit of done) expect(visit.errors, 'uncaught errors on the page').toEqual([]);
  });

  afterAll(async () => {
    await env.browser?.close();
    await Promise.all([env.service?.close(), env.site?.close()]);
  });

  return env;
}
