import { describe, expect, it } from 'vitest';
import { signCallback, verifyCallback, type CallbackEvent, type LifecycleEvent, type SessionResolvedEvent } from '@svc/callbacks';
import { NOW, NOW_SECONDS, OLD_SECRET, SECRET, signedDelivery } from './deliveries.js';

const options = { secret: SECRET, now: NOW };

const session = {
  sessionId: 'sess_01',
  widgetId: 'wgt_01',
  visitorId: 'visitor-1',
  status: 'resolved' as const,
  messageCount: 4,
  rating: null,
  createdAt: '2026-01-01T00:00:00.000Z',
  resolvedAt: '2026-01-01T00:05:00.000Z',
};

const resolved: SessionResolvedEvent = {
  event: 'session.resolved',
  id: 'evt_01',
  deliveryId: 'dlv_01',
  createdAt: '2026-01-01T00:05:00.000Z',
  reason: 'agent',
  data: session,
};

describe('verifyCallback: lifecycle webhook events (DESIGN.md 5)', () => {
  it.each<LifecycleEvent>([
    { event: 'session.created', id: 'evt_02', deliveryId: 'dlv_01', createdAt: session.createdAt, data: { ...session, status: 'active', resolvedAt: null, messageCount: 0 } },
    resolved,
    { event: 'session.expired', id: 'evt_03', deliveryId: 'dlv_01', createdAt: session.createdAt, data: { ...session, status: 'expired', resolvedAt: null } },
    { event: 'session.rated', id: 'evt_04', deliveryId: 'dlv_01', createdAt: session.createdAt, data: { ...session, rating: 'positive' } },
    {
      event: 'message.feedback',
      id: 'evt_05',
      deliveryId: 'dlv_01',
      createdAt: session.createdAt,
      feedback: { messageId: 'msg_01', rating: 'down', reason: 'incomplete', comment: 'No delivery date.', updatedAt: session.createdAt },
      data: session,
    },
  ])('verifies and types $event', async (event) => {
    const verified = await verifyCallback(await signedDelivery({ event }), options);
    expect(verified.event).toEqual(event);
    const narrowed: CallbackEvent = verified.event;
    if (narrowed.event === 'session.resolved') expect(narrowed.reason).toBe('agent');
  });

  it('rejects a lifecycle body missing its session view or with an unknown reason', async () => {
    const { data: _data, ...noData } = resolved;
    await expect(verifyCallback(await signedDelivery({ event: noData }), options)).rejects.toMatchObject({
      reason: 'invalid_body',
      message: expect.stringMatching(/body.data must be an object/),
    });
    await expect(verifyCallback(await signedDelivery({ event: { ...resolved, reason: 'bored' } }), options)).rejects.toMatchObject({
      reason: 'invalid_body',
      message: expect.stringMatching(/body.reason must be one of "ended", "agent"/),
    });
    const feedback = { event: 'message.feedback', id: 'evt_05', deliveryId: 'dlv_01', createdAt: session.createdAt, data: session };
    await expect(verifyCallback(await signedDelivery({ event: { ...feedback, feedback: { messageId: 'msg_01', rating: 'meh', reason: null, comment: null, updatedAt: session.createdAt } } }), options)).rejects.toMatchObject({
      reason: 'invalid_body',
      message: expect.stringMatching(/body.feedback.rating must be one of "up", "down"/),
    });
  });

  it('accepts the two signatures a webhook sends during a secret rotation, with either secret configured', async () => {
    const body = JSON.stringify(resolved);
    const signatures = [await signCallback(SECRET, NOW_SECONDS, body), await signCallback(OLD_SECRET, NOW_SECONDS, body)].join(',');
    const headers = { 'X-Svc-Signature': signatures, 'X-Svc-Timestamp': String(NOW_SECONDS), 'X-Svc-Event': 'session.resolved', 'X-Svc-Delivery': 'dlv_01' };
    await expect(verifyCallback({ body, headers }, { secret: OLD_SECRET, now: NOW })).resolves.toMatchObject({ deliveryId: 'dlv_01' });
    await expect(verifyCallback({ body, headers }, { secret: SECRET, now: NOW })).resolves.toMatchObject({ deliveryId: 'dlv_01' });
    await expect(verifyCallback({ body, headers }, { secret: 'whsec_someone_else', now: NOW })).rejects.toMatchObject({ reason: 'signature_mismatch' });
  });
});
