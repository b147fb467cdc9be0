import type { Response } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { VIEWPORTS } from '../support/browser.js';
import { audit } from '../support/axe.js';
import { SLOW_STREAM } from '../support/service.js';
import { useE2E } from '../support/setup.js';
import { openBubble, sendMessage, sessionIdOf, widget } from '../support/widget.js';

// Issue 12 / DESIGN.md 7: replies stream in as they are written (`response_type: "stream"`), in real Chromium against
// the real service, the page and the API on different origins.
const env = useE2E();

describe.each(Object.entries(VIEWPORTS))('streamed replies on a %s', (_name, viewport) => {
  it('the first sentence shows before the reply completes; the final bubble is the stored reply, announced once', async () => {
    const { page, api } = await env.visit(env.embed(`/stream-${_name}`), viewport);
    const w = widget(page);
    const turns: Response[] = [];
    page.on('response', (response) => {
      if (response.request().method() === 'POST' && response.url().endsWith('/messages')) turns.push(response);
    });
    await openBubble(page);
    const release = env.service.holdMidStream();
    try {
      await sendMessage(page, 'stream slowly please');
      // Mid-answer: the first sentence is on screen (Markdown rendered), the typing indicator gone, nothing announced.
      await expect.poll(() => w.replies.count()).toBe(1);
      await expect.poll(async () => (await w.replies.first().innerText()).trim()).toBe('Our Trailhead 2 tent packs down small.');
      expect(await w.replies.first().locator('strong').innerText()).toBe('Trailhead 2');
      expect(await w.typing.count()).toBe(0);
      expect((await w.id('svc-live').innerText()).trim()).toBe('');
      const sessionId = sessionIdOf(api.find((request) => request.path.endsWith('/messages'))!)!;
      // The service has not completed the turn: no reply in the history yet.
      expect(await assistantReplies(sessionId)).toEqual([]);
      expect(await audit(page)).toEqual([]);
    } finally {
      release();
    }

    await expect.poll(async () => (await w.replies.first().innerText()).trim()).toBe(
      'Our Trailhead 2 tent packs down small. It weighs 1.6 kg and sets up in five minutes.',
    );
    const sessionId = sessionIdOf(api.find((request) => request.path.endsWith('/messages'))!)!;
    await expect.poll(() => assistantReplies(sessionId)).toEqual([SLOW_STREAM.join('')]);
    expect(await w.replies.count()).toBe(1);
    expect(await w.replies.first().locator('strong').innerText()).toBe('Trailhead 2');
    await expect.poll(async () => (await w.id('svc-live').innerText()).trim()).toBe(
      'Our Trailhead 2 tent packs down small. It weighs 1.6 kg and sets up in five minutes.',
    );
    // It was a stream: asked for, and answered as one.
    const send = api.find((request) => request.path.endsWith('/messages'))!;
    expect(send.body).toMatchObject({ content: 'stream slowly please', response_type: 'stream' });
    expect(turns).toHaveLength(1);
    expect(await turns[0]!.headerValue('content-type')).toMatch(/^text\/event-stream/);
    expect(await audit(page)).toEqual([]);
  });

  it('a stream cut mid-answer loses nothing: the reply comes from the history, the message is not sent again', async () => {
    const { page, api } = await env.visit(env.embed(`/stream-cut-${_name}`), viewport);
    const w = widget(page);
    await openBubble(page);
    const release = env.service.holdMidStream();
    try {
      await sendMessage(page, 'stream slowly please');
      await expect.poll(async () => (await w.replies.first().innerText().catch(() => '')).trim()).toBe('Our Trailhead 2 tent packs down small.');
      // The connection is cut while the agent is still writing (the service goes down a moment); the turn goes on.
      await env.service.stop(0);
      await page.waitForTimeout(300);
    } finally {
      release();
      await env.service.start();
    }
    await expect.poll(async () => (await w.replies.first().innerText()).trim()).toBe(
      'Our Trailhead 2 tent packs down small. It weighs 1.6 kg and sets up in five minutes.',
    );
    expect(await w.replies.count()).toBe(1);
    expect(await w.status.count()).toBe(0);
    expect(api.filter((request) => request.method === 'POST' && request.path.endsWith('/messages'))).toHaveLength(1);
    // It was read from the history.
    expect(api.some((request) => request.method === 'GET' && request.path.includes('/messages?'))).toBe(true);
    const sessionId = sessionIdOf(api.find((request) => request.path.endsWith('/messages'))!)!;
    expect(await env.service.userMessages(sessionId)).toEqual(['stream slowly please']);
    expect(await assistantReplies(sessionId)).toEqual([SLOW_STREAM.join('')]);
  });
});

/** The assistant items the service stored for a session, oldest first. */
async function assistantReplies(sessionId: string): Promise<string[]> {
  const stored = await env.service.store.listMessages({ widgetId: env.service.widget.id, sessionId, limit: 1000 });
  return stored.filter((item) => item.role === 'assistant').map((item) => item.content);
}
