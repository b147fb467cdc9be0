import { describe, expect, it } from 'vitest';
import { VIEWPORTS } from '../support/browser.js';
import { useE2E } from '../support/setup.js';
import { openBubble, reply, sendMessage, sessionIdOf, widget, type SeenRequest } from '../support/widget.js';

// Issue 12, defects 1 and 2: the conversation shown once, and nothing the visitor types lost.
const env = useE2E();

const messagePosts = (api: SeenRequest[]): SeenRequest[] => api.filter((r) => r.method === 'POST' && r.path.endsWith('/messages'));

describe.each(Object.entries(VIEWPORTS))('on a %s', (_name, viewport) => {
  it('reopening the bubble after a first conversation shows it once (2 messages, not 4)', async () => {
    const { page } = await env.visit(env.embed('/reopen'), viewport);
    const w = widget(page);
    await openBubble(page);
    await sendMessage(page, 'Do you ship to Canada?');
    await reply(page, 1);
    await w.id('svc-close').click();
    await w.panel.waitFor({ state: 'hidden' });
    await openBubble(page);
    // Give a wrong reload of the history every chance to land before counting.
    await page.waitForTimeout(500);
    expect(await page.locator('[data-testid="svc-message"]').count()).toBe(2);
  });

  it('a message typed while the service is down says so, and is delivered exactly once when it is back', async () => {
    const { page, api } = await env.visit(env.embed('/down'), viewport);
    const w = widget(page);
    await openBubble(page);
    await sendMessage(page, 'Do you ship to Canada?');
    await reply(page, 1);
    const sessionId = sessionIdOf(messagePosts(api)[0]!)!;

    await env.service.stop();
    try {
      await sendMessage(page, 'What is your return policy?');
      await expect.poll(() => w.status.getAttribute('data-kind')).toBe('unreachable');
      expect(await w.status.innerText()).not.toMatch(/offline/i);
      await expect.poll(() => w.userMessages.nth(1).getAttribute('data-state')).toBe('queued');
      // Typing goes on while it waits; the second message queues behind the first.
      await sendMessage(page, 'And exchanges?');
      await expect.poll(() => w.userMessages.count()).toBe(2 + 1);
    } finally {
      await env.service.start();
    }
    expect(await reply(page, 3)).toBeTruthy();
    await expect.poll(() => w.status.count()).toBe(0);
    expect(await env.service.userMessages(sessionId)).toEqual(['Do you ship to Canada?', 'What is your return policy?', 'And exchanges?']);
    expect(await w.userMessages.allInnerTexts()).toEqual(['Do you ship to Canada?', 'What is your return policy?', 'And exchanges?']);
    // Every attempt at a message carried the same Idempotency-Key.
    const keys = messagePosts(api).filter((r) => (r.body as { content: string }).content === 'What is your return policy?').map((r) => r.headers['idempotency-key']);
    expect(new Set(keys).size).toBe(1);
  });

  it('a message typed while the service is down survives a reload and is delivered exactly once after it is back', async () => {
    const { page, api } = await env.visit(env.embed('/down-reload'), viewport);
    const w = widget(page);
    await openBubble(page);
    await sendMessage(page, 'Do you ship to Canada?');
    await reply(page, 1);
    const sessionId = sessionIdOf(messagePosts(api)[0]!)!;

    await env.service.stop();
    try {
      await sendMessage(page, 'What is your return policy?');
      await expect.poll(() => w.userMessages.nth(1).getAttribute('data-state')).toBe('queued');
      // The visitor leaves while the service is still down (widget.js may come from the cache or not at all).
      await page.reload();
    } finally {
      await env.service.start();
    }
    await page.reload();
    // Delivered without the visitor opening the chat again; the reply is there when they do.
    await expect.poll(() => env.service.userMessages(sessionId)).toEqual(['Do you ship to Canada?', 'What is your return policy?']);
    await openBubble(page);
    await reply(page, 2);
    expect(await w.userMessages.allInnerTexts()).toEqual(['Do you ship to Canada?', 'What is your return policy?']);
    expect(await env.service.userMessages(sessionId)).toEqual(['Do you ship to Canada?', 'What is your return policy?']);
  });

  it('Enter while a reply is pending queues the next message instead of ignoring it', async () => {
    const { page } = await env.visit(env.embed('/queue'), viewport);
    const w = widget(page);
    await openBubble(page);
    const release = env.service.hold();
    try {
      await sendMessage(page, 'Do you ship to Canada?');
      await w.typing.waitFor({ state: 'visible' });
      await w.input.fill('What is your return policy?');
      await w.input.press('Enter');
      await expect.poll(() => w.userMessages.count()).toBe(2);
      expect(await w.input.inputValue()).toBe('');
    } finally {
      release();
    }
    await reply(page, 2);
    expect(await w.userMessages.allInnerTexts()).toEqual(['Do you ship to Canada?', 'What is your return policy?']);
  });

  it('the banner says "offline" only when the browser is offline, and the queued message goes out when it is back', async () => {
    const { page, context } = await env.visit(env.embed('/offline'), viewport);
    const w = widget(page);
    await openBubble(page);
    await context.setOffline(true);
    await expect.poll(() => w.status.getAttribute('data-kind')).toBe('offline');
    await sendMessage(page, 'Do you ship to Canada?');
    await expect.poll(() => w.userMessages.first().getAttribute('data-state')).toBe('queued');
    await context.setOffline(false);
    expect(await reply(page, 1)).toMatch(/Canada/);
    await expect.poll(() => w.status.count()).toBe(0);
  });
});
