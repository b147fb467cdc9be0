import { describe, expect, it } from 'vitest';
import { useE2E } from '../support/setup.js';
import { browserStorage, openBubble, reply, sendMessage, sessionIdOf, widget, type SeenRequest } from '../support/widget.js';

// PGlite here (real SQL behind the widget); the other files use the memory store, which starts instantly.
const env = useE2E({ store: 'pglite' });

/** The conversations the widget opened, in order: the visitorId it sent and the session it then wrote to. */
function conversations(requests: SeenRequest[]): { visitorId: unknown; sessionId: string | null }[] {
  return requests.flatMap((request, i) => {
    if (request.method !== 'POST' || !/\/conversations$/.test(request.path)) return [];
    const next = requests.slice(i + 1).find((later) => later.method === 'POST' && later.path.endsWith('/messages'));
    return [{ visitorId: (request.body as { visitorId?: unknown }).visitorId, sessionId: next ? sessionIdOf(next) : null }];
  });
}

describe('a visitor chatting in the bubble', () => {
  it('sees the typing indicator while the agent works, then the answer from the knowledge base', async () => {
    const { page } = await env.visit(env.embed('/shop'));
    const w = widget(page);
    await openBubble(page);
    await expect.poll(() => w.messages.innerText()).toContain('Ask me about shipping');

    const release = env.service.hold();
    try {
      await sendMessage(page, 'Do you ship to Canada?');
      await w.typing.waitFor({ state: 'visible' });
      expect(await w.userMessages.allInnerTexts()).toEqual(['Do you ship to Canada?']);
      expect(await w.replies.count()).toBe(0);
    } finally {
      release();
    }
    expect(await reply(page, 1)).toMatch(/Canada/);
    await w.typing.waitFor({ state: 'detached' });
    // The visitor can type the next message at once.
    await expect.poll(() => w.send.isEnabled()).toBe(true);
  });

  it('finds the conversation again after a reload, and continues it in the same session', async () => {
    const { page, api } = await env.visit(env.embed('/shop'));
    const w = widget(page);
    await openBubble(page);
    await sendMessage(page, 'Do you ship to Canada?');
    const answer = await reply(page, 1);

    await page.reload();
    await openBubble(page);
    await expect.poll(() => w.userMessages.allInnerTexts()).toEqual(['Do you ship to Canada?']);
    expect(await reply(page, 1)).toBe(answer);

    await sendMessage(page, 'How much is shipping to Canada?');
    expect(await reply(page, 2)).toMatch(/\$14\.95/);
    const sessions = api.filter((r) => r.method === 'POST' && r.path.endsWith('/messages')).map(sessionIdOf);
    expect(sessions).toHaveLength(2);
    expect(sessions[1]).toBe(sessions[0]);
    expect(conversations(api)).toHaveLength(1);
  });

  it('Svc.reset() leaves nothing of the visitor: storage, element, session and visitorId all new', async () => {
    // The site's own storage must survive the widget's reset.
    const { page, api } = await env.visit(env.embed('/shop', { script: "localStorage.setItem('site:theme', 'dark');" }));
    const w = widget(page);
    await openBubble(page);
    await sendMessage(page, 'Do you ship to Canada?');
    await reply(page, 1);
    const before = await browserStorage(page);
    const [first] = conversations(api);
    expect(first?.sessionId).toBeTruthy();
    // Sanity: the widget did keep the visitor in storage, so the check below is not vacuous.
    expect(Object.values(before.local).join(' ')).toContain(String(first!.visitorId));

    const atReset = api.length;
    await page.evaluate(() => window.Svc!.reset());
    expect(await browserStorage(page)).toEqual({ local: { 'site:theme': 'dark' }, session: {}, cookie: '' });
    expect(await page.locator('svc-chat-widget').count()).toBe(0);
    expect(await page.evaluate(() => document.querySelectorAll('svc-chat-widget').length)).toBe(0);

    await page.evaluate(() => void window.Svc!.bubble({}));
    await openBubble(page);
    expect(await w.userMessages.count()).toBe(0);
    await sendMessage(page, 'What is your return policy?');
    await reply(page, 1);
    const [, second] = conversations(api);
    expect(second?.sessionId).toBeTruthy();
    expect(second!.sessionId).not.toBe(first!.sessionId);
    expect(second!.visitorId).not.toBe(first!.visitorId);
    // Nothing after the reset reads or writes the old conversation.
    expect(api.slice(atReset).filter((r) => sessionIdOf(r) === first!.sessionId)).toEqual([]);
  });
});
