import type { BrowserContext, Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { IDENTITY_PATH } from '../support/page-server.js';
import { useE2E } from '../support/setup.js';
import { browserStorage, openBubble, reply, sendMessage, sessionIdOf, widget, type SeenRequest } from '../support/widget.js';

const env = useE2E();

/**
 * The site registers its provider from the script's load event (spec 4.9). The provider asks the site's own
 * endpoint, as a real one would, and notes when it was called.
 */
const PROVIDER_PAGE_SCRIPT = `
window.providerCalls = [];
window.startWidget = function () {
  Svc.setIdentityTokenProvider(async function () {
    window.providerCalls.push(Date.now());
    const response = await fetch('${IDENTITY_PATH}', { credentials: 'same-origin' });
    return (await response.json()).token;
  });
  Svc.bubble({});
};`;

const providerCalls = (page: Page): Promise<number[]> => page.evaluate(() => (window as unknown as { providerCalls: number[] }).providerCalls);

const isApiCall = (request: SeenRequest): boolean => request.path.startsWith('/widgets/');
const created = (requests: SeenRequest[]): SeenRequest[] => requests.filter((r) => r.method === 'POST' && /\/conversations$/.test(r.path));
const messagePosts = (requests: SeenRequest[]): SeenRequest[] => requests.filter((r) => r.method === 'POST' && r.path.endsWith('/messages'));

/** Spec 4.9: the token lives in memory and in the `X-Identity-Token` header only: no URL, storage or cookie. */
async function expectTokensOnlyInHeaders(page: Page, context: BrowserContext, requests: SeenRequest[], tokens: string[]): Promise<void> {
  expect(tokens.length).toBeGreaterThan(0);
  const storage = await browserStorage(page);
  const cookies = await context.cookies();
  const kept = JSON.stringify({ storage, cookies });
  for (const token of tokens) {
    const [, payload, signature] = token.split('.');
    for (const part of [token, payload!, signature!]) {
      expect(kept).not.toContain(part);
      expect(requests.filter((r) => r.url.includes(part)).map((r) => r.url)).toEqual([]);
    }
  }
  // No JWT at all (base64url of '{"') in any URL the page requested.
  expect(requests.filter((r) => /eyJ/.test(r.url)).map((r) => r.url)).toEqual([]);
}

describe('identity tokens', () => {
  it('asks the provider before the first message and again before expiry; a new sub means a new visitor', async () => {
    const { site, service } = env;
    site.identity.user = { sub: 'user-a', email: 'a@example.com' };
    site.identity.ttlSeconds = 65;
    const issuedBefore = site.issued.length;
    const { page, context, requests } = await env.visit(env.embed('/account', { script: PROVIDER_PAGE_SCRIPT, onload: 'startWidget()' }));
    const w = widget(page);
    await openBubble(page);

    await sendMessage(page, 'Do you ship to Canada?');
    expect(await reply(page, 1)).toMatch(/Canada/);
    const [firstCall] = await providerCalls(page);
    const [firstToken] = site.issued.slice(issuedBefore);
    expect(firstCall).toBeDefined();
    expect(firstToken?.token).toBeTruthy();
    const api = requests.filter(isApiCall);
    // Before the first message: the session is created with the token already in hand.
    expect(firstCall!).toBeLessThanOrEqual(created(api)[0]!.at);
    expect(api.map((r) => r.headers['x-identity-token'])).toEqual(api.map(() => firstToken!.token));

    // The next token is a short one, so the widget must ask again before it sends with it (see below).
    site.identity.ttlSeconds = 61;
    // Token 1 expires 65 s after it was signed: the provider is asked again once within 60 s of that, not later.
    await expect.poll(async () => (await providerCalls(page)).length, { timeout: 20_000, interval: 250 }).toBeGreaterThanOrEqual(2);
    const secondCall = (await providerCalls(page))[1]!;
    expect(secondCall - firstCall!).toBeGreaterThanOrEqual(4_000);
    expect(secondCall - firstCall!).toBeLessThanOrEqual(15_000);

    // Somebody else signs in on the site: the widget must not carry the conversation over to them.
    site.identity.user = { sub: 'user-b' };
    await page.waitForTimeout(1_500); // token 2 is now within 60 s of its expiry
    await sendMessage(page, 'What is your return policy?');
    // The old conversation is gone from the panel; the message opened a new one, which answers it.
    await expect.poll(() => w.userMessages.allInnerTexts()).toEqual(['What is your return policy?']);
    await expect.poll(() => messagePosts(requests).length).toBe(2);
    expect(await reply(page, 1)).toMatch(/return/i);

    const conversations = created(requests);
    expect(conversations).toHaveLength(2);
    const [before, after] = conversations.map((r) => r.body as { visitorId: string });
    expect(after!.visitorId).not.toBe(before!.visitorId);
    const sessions = messagePosts(requests).map(sessionIdOf);
    expect(sessions).toHaveLength(2);
    expect(sessions[1]).not.toBe(sessions[0]);
    const stored = await Promise.all(sessions.map((id) => service.store.getSession(service.widget.id, id!)));
    expect(stored.map((s) => s?.identitySub)).toEqual(['user-a', 'user-b']);
    expect(JSON.stringify(await browserStorage(page))).not.toContain(before!.visitorId);

    const tokens = site.issued.slice(issuedBefore).map((t) => t.token!);
    const subOf = (token: string): string => JSON.parse(atob(token.split('.')[1]!)).sub;
    expect(subOf(tokens.at(-1)!)).toBe('user-b');
    // The new conversation starts with one of user-b's tokens. (A 61 s token is within 60 s of expiry at once,
    // so the widget may legitimately ask again afterwards: "the last token" is a moving target.)
    const startedWith = created(requests)[1]!.headers['x-identity-token'];
    expect(tokens).toContain(startedWith);
    expect(subOf(startedWith!)).toBe('user-b');
    // Every conversation call carried a token, each one the site issued.
    for (const request of requests.filter(isApiCall)) expect(tokens).toContain(request.headers['x-identity-token']);
    await expectTokensOnlyInHeaders(page, context, requests, tokens);
  });

  it('data-identity-endpoint: the widget fetches the token from the site itself', async () => {
    const { site, service } = env;
    site.identity.user = { sub: 'endpoint-user', email: 'e@example.com' };
    site.identity.ttlSeconds = 3600;
    const issuedBefore = site.issued.length;
    const { page, context, requests } = await env.visit(env.embed('/endpoint', { identityEndpoint: IDENTITY_PATH }));
    await openBubble(page);
    await sendMessage(page, 'Do you ship to Canada?');
    await reply(page, 1);

    const fetched = requests.filter((r) => r.url === site.origin + IDENTITY_PATH);
    expect(fetched.map((r) => r.method)).toEqual(['GET']);
    const tokens = site.issued.slice(issuedBefore).map((t) => t.token!);
    expect(tokens).toHaveLength(1);
    const api = requests.filter(isApiCall);
    expect(api.length).toBeGreaterThanOrEqual(2);
    expect(fetched[0]!.at).toBeLessThanOrEqual(created(api)[0]!.at);
    expect(api.map((r) => r.headers['x-identity-token'])).toEqual(api.map(() => tokens[0]));
    const session = await service.store.getSession(service.widget.id, sessionIdOf(messagePosts(api)[0]!)!);
    expect(session?.identitySub).toBe('endpoint-user');
    await expectTokensOnlyInHeaders(page, context, requests, tokens);
  });
});
