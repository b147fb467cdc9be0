import { signCallback } from '@svc/callbacks';
import type { MessageCompletedEvent, MessageFailedEvent } from '@svc/callbacks';

/** Builders for genuine deliveries, signed exactly as the Svc server signs them. */

export const SECRET = 'whsec_test_current';
export const OLD_SECRET = 'whsec_test_previous';
/** 2026-01-01T00:00:00Z: every test pins `now` so tolerance edges are exact. */
export const NOW_SECONDS = 1767225600;
export const NOW = new Date(NOW_SECONDS * 1000);

export const completedEvent: MessageCompletedEvent = {
  event: 'message.completed',
  deliveryId: 'dlv_01',
  messageId: 'msg_01',
  sessionId: 'sess_01',
  widgetId: 'wgt_01',
  data: {
    content: 'Yes, we ship to Canada — délai 3 jours 🚚',
    products: [{ id: 'prod_tent', name: 'Trail tent', price: 199, currency: 'EUR' }],
    actions: [],
    sessionEnded: false,
    credits: { chat: 1, retrieval: 1, orchestration: 0, embedding: 0, rerank: 0, plugin: 0, pluginRerank: 0, crawler: 0 },
    usage: { inputTokens: 42, outputTokens: 17 },
  },
};

export const failedEvent: MessageFailedEvent = {
  event: 'message.failed',
  deliveryId: 'dlv_01',
  messageId: null,
  sessionId: 'sess_01',
  widgetId: 'wgt_01',
  error: { code: 'agent_failed', message: 'The model did not answer in time' },
};

export interface SignedDelivery {
  body: string;
  headers: { 'X-Svc-Signature': string; 'X-Svc-Timestamp': string; 'X-Svc-Event': string; 'X-Svc-Delivery': string };
}

export async function signedDelivery(
  options: { event?: object; body?: string; secret?: string; timestamp?: number; eventHeader?: string; deliveryId?: string } = {},
): Promise<SignedDelivery> {
  // The delivery id is in the signed body too; a test naming one gets it in both places unless it passes its own body.
  const event = options.event ?? (options.deliveryId === undefined ? completedEvent : { ...completedEvent, deliveryId: options.deliveryId });
  const body = options.body ?? JSON.stringify(event);
  const timestamp = options.timestamp ?? NOW_SECONDS;
  return {
    body,
    headers: {
      'X-Svc-Signature': await signCallback(options.secret ?? SECRET, timestamp, body),
      'X-Svc-Timestamp': String(timestamp),
      'X-Svc-Event': options.eventHeader ?? (event as { event: string }).event,
      'X-Svc-Delivery': options.deliveryId ?? (event as { deliveryId?: string }).deliveryId ?? 'dlv_01',
    },
  };
}
