import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';

/** Debian's Chromium (`apt-get install chromium`, done by .ci/run). playwright-core never downloads one. */
const CHROMIUM = process.env.SVC_E2E_CHROMIUM ?? '/usr/bin/chromium';

const ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
  '--disable-quic',
];

export function launchBrowser(): Promise<Browser> {
  return chromium.launch({ executablePath: CHROMIUM, args: ARGS });
}

export interface Viewport {
  width?: number;
  height?: number;
  touch?: boolean;
}

/** The two visitors every widget defect is checked for: a desktop and a 390×844 touch phone. */
export const VIEWPORTS = {
  desktop: { width: 1280, height: 800 },
  phone: { width: 390, height: 844, touch: true },
} satisfies Record<string, Viewport>;

/**
 * A fresh visitor: empty storage and cookies, a fixed viewport, locale and zone (screenshots and replies do not
 * depend on the machine). Nothing leaves this machine: requests to any host but the loopback ones are aborted.
 */
export async function newContext(browser: Browser, options: Viewport = {}): Promise<BrowserContext> {
  const context = await browser.newContext({
    viewport: { width: options.width ?? 1280, height: options.height ?? 800 },
    deviceScaleFactor: 1,
    // A phone: touch events, `pointer: coarse`, the mobile viewport meta honoured.
    ...(options.touch && { hasTouch: true, isMobile: true }),
    locale: 'en-US',
    timezoneId: 'UTC',
    reducedMotion: 'reduce',
  });
  await context.route(
    (url) => url.hostname !== '127.0.0.1' && url.hostname !== 'localhost',
    (route) => route.abort('blockedbyclient'),
  );
  return context;
}

/** Uncaught errors of the page: a widget that throws into the page it is embedded in is a bug. */
export function collectPageErrors(page: Page): string[] {
  const errors: string[] = [];
  page.on('pageerror', (error) => errors.push(String(error.stack ?? error)));
  return errors;
}
