import { operatorAdmin } from '@svc/server';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { audit } from '../support/axe.js';
import { VIEWPORTS } from '../support/browser.js';
import { useE2E, type Visit } from '../support/setup.js';
import { openBubble, sendMessage, sessionIdOf, widget } from '../support/widget.js';

// Issues 12 and 13, DESIGN.md 6 and 7: a person takes over from the AI, and what they write reaches the open widget
// live through the session event stream, marked as from a person. Real Chromium, the real service over sockets, the
// page and the API on different origins; the operator acts through the core operations the CLI and console use.
const env = useE2E();
const SARAH = { id: null, name: 'Sarah' };
const operator = (sessionId: string) => {
  const { accountId, id: widgetId } = env.service.widget;
  const admin = operatorAdmin(env.service.store);
  const ref = { accountId, widgetId, sessionId };
  return {
    accept: () => admin.acceptHandoff(ref, SARAH),
    reply: (text: string) => admin.replyAsOperator(ref, { operator: SARAH, text }),
    release: () => admin.releaseHandoff(ref),
  };
};

/** The texts of the bubbles marked as a person's, as shown. */
const personBubbles = (page: Page): Promise<string[]> =>
  page.locator('[data-testid="svc-message"]:has([data-testid="svc-author"])').evaluateAll((nodes) => nodes.map((node) => node.textContent ?? ''));

/** Opens the bubble and asks for a person; resolves with the session the widget created. */
async function askForAPerson({ page, api }: Visit): Promise<string> {
  const w = widget(page);
  await openBubble(page);
  await sendMessage(page, 'I want to talk to a person');
  await expect.poll(async () => (await w.replies.first().innerText().catch(() => '')).trim()).toMatch(/person/);
  return sessionIdOf(api.find((request) => request.method === 'POST' && request.path.endsWith('/messages'))!)!;
}

describe.each(Object.entries(VIEWPORTS))('a person takes over, on a %s', (name, viewport) => {
  it("the operator's reply appears live, marked as a person; after the release the AI answers again", async () => {
    const visit = await env.visit(env.embed(`/handoff-${name}`), viewport);
    const { page, api } = visit;
    const w = widget(page);
    const sessionId = await askForAPerson(visit);
    const sarah = operator(sessionId);

    await sarah.accept();
    await sarah.reply('Hi, Sarah here. How can I **help**?');
    // Live, without a reload: by name, as a person, its Markdown rendered, announced to screen readers.
    await expect.poll(() => personBubbles(page)).toEqual(['Sarah (person)Hi, Sarah here. How can I help?']);
    expect(await w.id('svc-author').innerText()).toBe('Sarah (person)');
    expect(await page.locator('[part~="message-operator"] strong').innerText()).toBe('help');
    await expect.poll(async () => (await w.id('svc-live').innerText()).trim()).toBe('Sarah: Hi, Sarah here. How can I help?');
    expect(api.filter((request) => request.method === 'GET' && /\/conversations\/[^/]+$/.test(request.path))).toHaveLength(0);
    expect(await audit(page)).toEqual([]);

    await sarah.release();
    await sendMessage(page, 'Do you ship to Canada?');
    await expect.poll(() => w.replies.count()).toBe(3);
    const answer = w.replies.nth(2);
    await expect.poll(async () => (await answer.innerText()).trim()).toMatch(/Canada/);
    expect(await answer.locator('[data-testid="svc-author"]').count()).toBe(0);
    // Each message once: the visitor's two, the AI's handover note, Sarah's reply, the AI's answer.
    expect(await w.userMessages.count()).toBe(2);
    expect(await personBubbles(page)).toHaveLength(1);
  });

  it('a dropped event stream resumes after the last event seen: nothing missing, nothing twice', async () => {
    const visit = await env.visit(env.embed(`/handoff-drop-${name}`), viewport);
    const { page, api } = visit;
    const sessionId = await askForAPerson(visit);
    const sarah = operator(sessionId);
    await sarah.accept();
    await sarah.reply('First, before the drop.');
    await expect.poll(() => personBubbles(page)).toEqual(['Sarah (person)First, before the drop.']);

    // The service goes away, cutting every connection; Sarah writes meanwhile.
    await env.service.stop(0);
    try {
      await sarah.reply('Second, while the stream was down.');
      await page.waitForTimeout(300);
    } finally {
      await env.service.start();
    }
    await expect.poll(() => personBubbles(page)).toEqual(['Sarah (person)First, before the drop.', 'Sarah (person)Second, while the stream was down.']);
    await sarah.reply('Third, on the new connection.');
    await expect.poll(() => personBubbles(page)).toHaveLength(3);
    expect((await personBubbles(page))[2]).toBe('Sarah (person)Third, on the new connection.');

    // The new connection asked for what followed the last event the widget had.
    const streams = api.filter((request) => request.path.endsWith('/events'));
    expect(streams.length).toBeGreaterThanOrEqual(2);
    expect(streams[0]!.headers['last-event-id']).toBe('0');
    expect(Number(streams.at(-1)!.headers['last-event-id'])).toBeGreaterThan(0);
  });
});
