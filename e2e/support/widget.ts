import { expect } from 'vitest';
import type { Locator, Page, Request } from 'playwright-core';

/**
 * The widget as a visitor meets it. Playwright's test-id and CSS locators pierce open shadow roots, so these find
 * the elements inside `<svc-chat-widget>` by the `data-testid`s the widget documents.
 */
export function widget(page: Page) {
  const id = (testId: string): Locator => page.getByTestId(testId);
  return {
    launcher: id('svc-launcher'),
    panel: id('svc-panel'),
    input: id('svc-input'),
    send: id('svc-send'),
    messages: id('svc-messages'),
    typing: id('svc-typing'),
    userMessages: page.locator('[data-testid="svc-message"][data-role="user"]'),
    replies: page.locator('[data-testid="svc-message"][data-role="assistant"]'),
    form: id('svc-form'),
    rating: id('svc-rating'),
    status: id('svc-status'),
    end: id('svc-end'),
    id,
  };
}

/** Opens the bubble's panel with the launcher, as a visitor does. */
export async function openBubble(page: Page): Promise<void> {
  const w = widget(page);
  await w.launcher.click();
  await w.panel.waitFor({ state: 'visible' });
}

/** Types a message and sends it with the send button. */
export async function sendMessage(page: Page, text: string): Promise<void> {
  const w = widget(page);
  await w.input.fill(text);
  await w.send.click();
}

/** Waits for the `count`-th reply (1-based) and returns its text. */
export async function reply(page: Page, count: number): Promise<string> {
  const w = widget(page);
  await expect.poll(() => w.replies.count()).toBeGreaterThanOrEqual(count);
  return (await w.replies.nth(count - 1).innerText()).trim();
}

export interface SeenRequest {
  method: string;
  url: string;
  path: string;
  headers: Record<string, string>;
  body: unknown;
  /** When the page sent it (ms since the epoch). */
  at: number;
}

/** Every request the page sends (to `origin` only, when given; CORS preflights aside), with headers and JSON body. */
export function recordRequests(page: Page, origin?: string): SeenRequest[] {
  const seen: SeenRequest[] = [];
  page.on('request', (request: Request) => {
    const url = new URL(request.url());
    if ((origin !== undefined && url.origin !== origin) || request.method() === 'OPTIONS') return;
    const text = request.postData();
    let body: unknown = text ?? undefined;
    try {
      body = text ? JSON.parse(text) : undefined;
    } catch {
      // Not JSON: kept as text.
    }
    // headers() holds what the page set (X-API-Key, X-Identity-Token); only cookie headers are left out.
    seen.push({ method: request.method(), url: request.url(), path: url.pathname + url.search, headers: request.headers(), body, at: Date.now() });
  });
  return seen;
}

/** The session id in a conversation URL (`/widgets/{w}/conversations/{session}/…`), if any. */
export function sessionIdOf(request: SeenRequest): string | null {
  return /\/conversations\/([^/?]+)/.exec(request.path)?.[1] ?? null;
}

/** Everything the page keeps in the browser: both storages and the cookies it can see. */
export function browserStorage(page: Page): Promise<{ local: Record<string, string>; session: Record<string, string>; cookie: string }> {
  return page.evaluate(() => {
    const dump = (storage: Storage): Record<string, string> => {
      const out: Record<string, string> = {};
      for (let i = 0; i < storage.length; i++) {
        const key = storage.key(i)!;
        out[key] = storage.getItem(key) ?? '';
      }
      return out;
    };
    return { local: dump(localStorage), session: dump(sessionStorage), cookie: document.cookie };
  });
}

/** Answers of 400 and above from `origin`, as "GET /path → 403 {body}": a readable reason when the widget gives up. */
export function recordFailures(page: Page, origin: string): string[] {
  const failures: string[] = [];
  page.on('response', async (response) => {
    const url = new URL(response.url());
    if (url.origin !== origin || response.status() < 400) return;
    const entry = `${response.request().method()} ${url.pathname} → ${response.status()}`;
    // Listed at once; the body follows when it has been read.
    const index = failures.push(entry) - 1;
    failures[index] = `${entry} ${await response.text().catch(() => '')}`;
  });
  return failures;
}
