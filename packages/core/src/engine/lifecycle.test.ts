import { describe, expect, it } from 'vitest';
import { manualClock } from '../clock.js';
import type { Delivery } from '../store/turn-job-store.js';
import { createEngineHarness, agentReply, echoAgent } from '../testing/engine-harness.js';
import { makeWebhook } from '../testing/fixtures.js';
import type { Agent } from '../agent.js';

/** The lifecycle rows the engine wrote, oldest first, with their parsed bodies. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- tests read arbitrary fields of the bodies; the schemas pin their types elsewhere
async function lifecycleRows(h: Awaited<ReturnType<typeof createEngineHarness>>): Promise<Array<Delivery & { body: Record<string, any> }>> {
  const rows = await h.store.listDeliveries({ limit: 100 });
  return rows
    .filter((row) => row.webhookId !== null)
    // Oldest first; rows of one instant (one event, several endpoints) by URL.
    .sort((a, b) => a.createdAt.getTime() - b.createdAt.getTime() || a.url.localeCompare(b.url))
    // eslint-disable-next-line @typescript-eslint/no-explicit-any -- as above
    .map((row) => ({ ...row, body: JSON.parse(row.payload) as Record<string, any> }));
}

/** Ends the session on any message (the agent concluding the conversation). */
const farewellAgent: Agent = { reply: async () => agentReply('Goodbye!', { sessionEnded: true }) };

describe('lifecycle webhook events (DESIGN.md section 5), written by the engine', () => {
  it('writes session.created, session.resolved (ended) and session.rated once per change, with the get-session view', async () => {
    const clock = manualClock('2026-05-01T10:00:00.000Z');
    const h = await createEngineHarness({ agent: echoAgent(), clock });
    const all = makeWebhook({ accountId: h.accountId, url: 'https://hooks.example.com/all' });
    const ratedOnly = makeWebhook({ accountId: h.accountId, url: 'https://hooks.example.com/rated', events: ['session.rated'] });
    await h.store.insertWebhook(all);
    await h.store.insertWebhook(ratedOnly);
    await h.store.insertWebhook(makeWebhook({ accountId: 'acct_someone_else' }));

    const sessionId = await h.session();
    // Resuming is not a state change: no second session.created.
    await h.engine.createSession(h.principal, h.widget.id, { visitorId: 'visitor-1', sessionId });
    await h.engine.sendMessage(h.principal, h.widget.id, sessionId, { content: 'hello' });
    clock.advance(1000);
    await h.engine.endSession(h.principal, h.widget.id, sessionId);
    await h.engine.endSession(h.principal, h.widget.id, sessionId); // ending twice changes nothing
    clock.advance(1000);
    await h.engine.rateSession(h.principal, h.widget.id, sessionId, { rating: 'positive' });

    const rows = await lifecycleRows(h);
    expect(rows.map((row) => [row.event, row.url])).toEqual([
      ['session.created', all.url],
      ['session.resolved', all.url],
      ['session.rated', all.url],
      ['session.rated', ratedOnly.url],
    ]);
    const [created, resolved, rated, ratedElsewhere] = rows;
    expect(created!.body).toEqual({
      event: 'session.created',
      id: expect.stringMatching(/^evt_/),
      deliveryId: created!.id,
      createdAt: '2026-05-01T10:00:00.000Z',
      data: {
        sessionId,
        widgetId: h.widget.id,
        visitorId: 'visitor-1',
        status: 'active',
        messageCount: 0,
        rating: null,
        createdAt: '2026-05-01T10:00:00.000Z',
        resolvedAt: null,
        handoff: null,
      },
    });
    expect(resolved!.body).toMatchObject({
      event: 'session.resolved',
      reason: 'ended',
      data: { status: 'resolved', messageCount: 2, resolvedAt: '2026-05-01T10:00:01.000Z' },
    });
    expect(rated!.body).toMatchObject({ event: 'session.rated', data: { status: 'resolved', rating: 'positive' } });
    // One event, two endpoints: the same event id, a delivery id each.
    expect(ratedElsewhere!.body.id).toBe(rated!.body.id);
    expect(ratedElsewhere!.id).not.toBe(rated!.id);
    for (const row of rows) {
      expect([row.keyId, row.webhookId, row.status, row.sessionId]).toEqual([null, row.url === all.url ? all.id : ratedOnly.id, 'pending', sessionId]);
    }
  });

  it('writes session.resolved with reason agent when the agent ends the session, once', async () => {
    const h = await createEngineHarness({ agent: farewellAgent });
    await h.store.insertWebhook(makeWebhook({ accountId: h.accountId, events: ['session.resolved'] }));
    const sessionId = await h.session();
    await h.engine.sendMessage(h.principal, h.widget.id, sessionId, { content: 'bye' });
    await h.engine.endSession(h.principal, h.widget.id, sessionId);
    const rows = await lifecycleRows(h);
    expect(rows.map((row) => [row.event, row.body.reason, row.body.data.status, row.body.data.messageCount])).toEqual([
      ['session.resolved', 'agent', 'resolved', 2],
    ]);
  });

  it('writes session.expired from the sweep and from a read that finds the session expired, never twice', async () => {
    const clock = manualClock('2026-05-01T10:00:00.000Z');
    const h = await createEngineHarness({ agent: echoAgent(), clock });
    await h.store.insertWebhook(makeWebhook({ accountId: h.accountId, events: ['session.expired'] }));
    const swept = await h.session();
    const read = await h.session();
    clock.advance(h.widget.sessionTtlSeconds * 1000);

    await expect(h.engine.getSession(h.principal, h.widget.id, read)).resolves.toMatchObject({ data: { status: 'expired' } });
    await h.engine.getSession(h.principal, h.widget.id, read);
    expect(await h.engine.expireIdleSessions(1)).toBe(1);
    expect(await h.engine.expireIdleSessions(1)).toBe(0);

    const rows = await lifecycleRows(h);
    // Both written at the same instant: compare as a set.
    expect(rows.map((row) => [row.event, row.sessionId, row.body.data.status]).sort()).toEqual(
      [
        ['session.expired', read, 'expired'],
        ['session.expired', swept, 'expired'],
      ].sort(),
    );
  });

  it('sweeps in batches until nothing is due', async () => {
    const clock = manualClock('2026-05-01T10:00:00.000Z');
    const h = await createEngineHarness({ agent: echoAgent(), clock });
    await h.store.insertWebhook(makeWebhook({ accountId: h.accountId, events: ['session.expired'] }));
    for (let i = 0; i < 7; i++) await h.session();
    clock.advance(h.widget.sessionTtlSeconds * 1000);
    expect(await h.engine.expireIdleSessions(3)).toBe(7);
    expect((await lifecycleRows(h)).map((row) => row.event)).toEqual(Array(7).fill('session.expired'));
  });

  it('writes nothing when the account has no endpoint for the event', async () => {
    const h = await createEngineHarness({ agent: echoAgent() });
    await h.store.insertWebhook(makeWebhook({ accountId: h.accountId, events: ['session.rated'] }));
    const sessionId = await h.session();
    await h.engine.endSession(h.principal, h.widget.id, sessionId);
    expect(await lifecycleRows(h)).toEqual([]);
  });
});
