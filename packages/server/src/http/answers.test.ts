import { afterAll, describe, expect, it } from 'vitest';
import { createMemoryStore, type Store } from '@svc/core';
import { createPgliteStore } from '@svc/store-postgres';
import { createHarness } from '../testing/harness.js';

/**
 * Answers that know when they don't know (issue 23, DESIGN.md section 11), through HTTP on the stores users run:
 * a reply names the documents it used in `sources`; below the widget's threshold it cites nothing, offers the
 * closest articles and a person, and the stored message says the turn went unanswered, with its confidence.
 */
const stores: Store[] = [];
afterAll(async () => {
  for (const store of stores) await store.close();
});

describe.each([
  ['memory', async (): Promise<Store> => createMemoryStore()],
  ['PGlite', async (): Promise<Store> => createPgliteStore()],
])('answers and abstention (%s store)', { timeout: 60_000 }, (_name, open) => {
  // One store per kind (PGlite takes seconds to create); each test gets an account, widget and knowledge base of its own.
  let shared: Promise<Store> | undefined;
  async function harness() {
    shared ??= open().then((store) => (stores.push(store), store));
    return createHarness({ store: await shared });
  }

  it('names the document it answered from in sources, and stores the outcome and confidence', async () => {
    const h = await harness();
    const id = await h.session();
    const res = await h.post(`${h.base}/${id}/messages`, { content: 'How do I return an item?' });
    expect(res.status).toBe(200);
    expect(res.body.data.sources).toEqual([{ documentId: expect.any(String), title: 'Returns and refunds', url: expect.stringMatching(/^https:\/\//) }]);
    expect(res.body.data.actions).toEqual([]);
    const stored = await h.store.getMessage(h.widget.id, id, res.body.data.messageId);
    expect(stored).toMatchObject({ outcome: 'answered', sources: res.body.data.sources });
    expect(stored?.confidence).toBeGreaterThanOrEqual(h.widget.confidenceThreshold);
  });

  it('does not answer a question the knowledge base does not cover: no source, no product, the closest articles and a person offered', async () => {
    const h = await harness();
    const id = await h.session();
    const res = await h.post(`${h.base}/${id}/messages`, { content: 'Can I bring my dog on a cruise?' });
    expect(res.status).toBe(200);
    expect(res.body.data.sources).toEqual([]);
    expect(res.body.data.products).toEqual([]);
    expect(res.body.data.actions).toContainEqual({ type: 'reply', label: 'Talk to a person', text: 'I would like to talk to a person.' });
    const stored = await h.store.getMessage(h.widget.id, id, res.body.data.messageId);
    expect(stored?.outcome).toBe('unanswered');
    expect(stored?.confidence).toBeLessThan(h.widget.confidenceThreshold);
    // The history shows the reply as the visitor saw it; the quick reply, sent back, hands over to a person.
    const handoff = await h.post(`${h.base}/${id}/messages`, { content: 'I would like to talk to a person.' });
    expect(handoff.status).toBe(200);
    expect((await h.store.getSession(h.widget.id, id))?.handoff).toMatchObject({ state: 'requested' });
  });

  it('follows the widget threshold: at 0 the agent answers from the best passage however poor, at 1 it answers nothing from passages', async () => {
    const h = await harness();
    await h.admin.updateWidget(h.account.id, h.widget.id, { confidenceThreshold: 0 });
    const loose = await h.post(`${h.base}/${await h.session()}/messages`, { content: 'Can I bring my dog on a cruise trip with returns?' });
    expect(loose.body.data.sources.length).toBe(1);
    await h.admin.updateWidget(h.account.id, h.widget.id, { confidenceThreshold: 1 });
    const strict = await h.post(`${h.base}/${await h.session({ visitorId: 'visitor-2' })}/messages`, { content: 'How do I return an item?' });
    expect(strict.body.data.sources).toEqual([]);
  });

  it('refuses a threshold outside 0-1 naming the field, and shows the threshold on the widget', async () => {
    const h = await harness();
    await expect(h.admin.updateWidget(h.account.id, h.widget.id, { confidenceThreshold: 1.5 })).rejects.toMatchObject({
      code: 'validation_failed',
      field: 'confidenceThreshold',
    });
    expect((await h.admin.getWidget(h.account.id, h.widget.id)).confidenceThreshold).toBe(0.4);
  });
});
