import type { SvcError } from '../../errors.js';
import type { MessageReply } from '../../schemas/message.js';
import { pendingDelivery, type CallbackEventName, type Delivery, type TurnJob } from '../../store/turn-job-store.js';
import type { EngineContext } from '../../context.js';

/** Who a delivery is for: the key whose callback URL and secret apply, and the conversation it is about. */
export type DeliveryTarget = Pick<TurnJob, 'accountId' | 'keyId' | 'widgetId' | 'sessionId'>;

/** An outbox row: written in the transaction that causes it, POSTed later by the delivery worker. */
export function delivery(
  ctx: Pick<EngineContext, 'ids' | 'clock'>,
  target: DeliveryTarget,
  url: string,
  event: CallbackEventName,
  body: object,
  messageId: string | null,
): Delivery {
  const id = ctx.ids.random('dlv');
  return pendingDelivery(
    {
      id,
      accountId: target.accountId,
      keyId: target.keyId,
      webhookId: null,
      widgetId: target.widgetId,
      sessionId: target.sessionId,
      messageId,
      event,
      // The id goes in the signed body too (beside X-Svc-Delivery), so a replay cannot pose as a new delivery.
      payload: JSON.stringify(withDeliveryId(body, id)),
      url,
    },
    ctx.clock.now(),
  );
}

/** `{ event, deliveryId, …rest }`: the id right after the event name, where a reader of the body looks first. */
function withDeliveryId(body: object, deliveryId: string): object {
  const { event, ...rest } = body as { event?: unknown };
  return { event, deliveryId, ...rest };
}

/** The `message.completed` body of spec 6. */
export function completedPayload(job: Pick<TurnJob, 'sessionId' | 'widgetId'>, reply: MessageReply): object {
  const { messageId, ...data } = reply;
  return { event: 'message.completed', messageId, sessionId: job.sessionId, widgetId: job.widgetId, data };
}

/** The `message.failed` body of DESIGN.md section 5. */
export function failedPayload(job: Pick<TurnJob, 'sessionId' | 'widgetId'>, error: SvcError): object {
  return {
    event: 'message.failed',
    messageId: null,
    sessionId: job.sessionId,
    widgetId: job.widgetId,
    error: { code: error.code, message: error.message },
  };
}
