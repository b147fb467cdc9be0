import type { Principal } from '../domain.js';
import { SvcError } from '../errors.js';
import type { MessageReply } from '../schemas/message.js';
import type { CallbackEventName, Delivery, TurnJob } from '../store/callback-store.js';
import type { StoreOps } from '../store/store.js';
import type { EngineContext, EngineResult } from './context.js';
import { sessionLock, turnLock } from './sessions.js';
import { agentFailure, callAgent, commitReply, storeUserMessage, type TurnInput } from './turn.js';
import { replyView } from './views.js';

/** Claims after which a job that keeps crashing its worker is given up (and reported as failed). */
export const MAX_TURN_ATTEMPTS = 3;

/**
 * Callback mode (spec 4.2, DESIGN.md section 5): the visitor's message and a durable turn job commit in one
 * transaction, then the caller gets 202 at once. A worker runs the turn later and writes a delivery.
 */
export async function enqueueTurn(
  ctx: EngineContext,
  input: TurnInput & { kind: TurnJob['kind'] },
): Promise<EngineResult<{ messageId: null; status: 'processing' }>> {
  const { principal, widget, sessionId } = input;
  await ctx.store.withLock(sessionLock(widget.id, sessionId), () =>
    storeUserMessage(ctx, input, async (tx, userMessage) => {
      await tx.insertTurnJob({
        id: ctx.ids.sortable('job', userMessage.createdAt),
        accountId: principal.accountId,
        keyId: principal.keyId,
        widgetId: widget.id,
        sessionId,
        userMessageId: userMessage.id,
        replyMessageId: ctx.ids.sortable('msg', userMessage.createdAt),
        kind: input.kind,
        identity: input.identity ?? principal.identity,
        timezone: input.timezone ?? null,
        status: 'queued',
        attempts: 0,
        leaseOwner: null,
        leaseExpiresAt: null,
        createdAt: userMessage.createdAt,
        finishedAt: null,
        error: null,
      });
    }),
  );
  ctx.onWork?.('turn');
  return { status: 202, data: { messageId: null, status: 'processing' }, creditsConsumed: 0 };
}

/** Who a delivery is for: the key whose callback URL and secret apply, and the conversation it is about. */
export type DeliveryTarget = Pick<TurnJob, 'accountId' | 'keyId' | 'widgetId' | 'sessionId'>;

export function delivery(ctx: EngineContext, target: DeliveryTarget, url: string, event: CallbackEventName, body: object, messageId: string | null): Delivery {
  const now = ctx.clock.now();
  const id = ctx.ids.random('dlv');
  return {
    id,
    accountId: target.accountId,
    keyId: target.keyId,
    widgetId: target.widgetId,
    sessionId: target.sessionId,
    messageId,
    event,
    // The id goes in the signed body too (beside X-Svc-Delivery), so a replay cannot pose as a new delivery.
    payload: JSON.stringify(withDeliveryId(body, id)),
    url,
    status: 'pending',
    attempts: 0,
    nextAttemptAt: now,
    leaseOwner: null,
    leaseExpiresAt: null,
    lastStatus: null,
    lastError: null,
    createdAt: now,
    deliveredAt: null,
  };
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
export function failedPayload(job: TurnJob, error: SvcError): object {
  return {
    event: 'message.failed',
    messageId: null,
    sessionId: job.sessionId,
    widgetId: job.widgetId,
    error: { code: error.code, message: error.message },
  };
}

/**
 * Runs one claimed job to its end: the reply, its debit, its delivery and the job's end commit together, so a
 * crash anywhere before that commit only means the job is claimed again after its lease; a crash after it is
 * recognised by the reply already being there. Either way no turn is answered twice.
 */
export async function processTurnJob(ctx: EngineContext, job: TurnJob): Promise<void> {
  const key = await ctx.store.getApiKey(job.keyId);
  const widget = await ctx.store.getWidget(job.widgetId);
  const url = key?.revokedAt === null ? key.callbackUrl : null;
  const finish = (tx: StoreOps, status: 'done' | 'failed', error: string | null) =>
    tx.finishTurnJob(job.id, { status, error, at: ctx.clock.now() });

  const fail = async (error: SvcError): Promise<void> => {
    await ctx.store.transaction(async (tx) => {
      if (url) await tx.insertDelivery(delivery(ctx, job, url, 'message.failed', failedPayload(job, error), null));
      await finish(tx, 'failed', `${error.code}: ${error.message}`);
    });
    ctx.onWork?.('delivery');
  };

  if (!widget || !key) return fail(new SvcError('widget_not_found', 'The widget or API key of this turn no longer exists.'));

  const writeLock = sessionLock(job.widgetId, job.sessionId);
  await ctx.store.withLock(turnLock(job.widgetId, job.sessionId), async () => {
    if (await ctx.store.getMessage(job.widgetId, job.sessionId, job.replyMessageId)) {
      // Answered before a crash kept the job from being marked done.
      await ctx.store.transaction((tx) => finish(tx, 'done', null));
      return;
    }
    if (job.attempts > MAX_TURN_ATTEMPTS) {
      return fail(new SvcError('agent_unavailable', `The turn failed ${MAX_TURN_ATTEMPTS} times; your message was kept.`));
    }
    const session = await ctx.store.getSession(job.widgetId, job.sessionId);
    const userMessage = await ctx.store.getMessage(job.widgetId, job.sessionId, job.userMessageId);
    if (!session || !userMessage) return fail(new SvcError('session_not_found', `Session ${job.sessionId} no longer exists.`));
    if (session.status !== 'active') {
      return fail(new SvcError('session_not_active', `Session ${job.sessionId} is ${session.status}; the message was not answered.`));
    }

    let reply;
    try {
      reply = await callAgent(ctx, { widget, session, userMessage, identity: job.identity, timezone: job.timezone ?? undefined });
    } catch (error) {
      return fail(agentFailure(error));
    }
    const principal: Pick<Principal, 'replyFormat'> = { replyFormat: key.replyFormat };
    await ctx.store.withLock(writeLock, () => commitReply(ctx, {
      accountId: job.accountId,
      session,
      replyId: job.replyMessageId,
      reply,
      extra: async (tx, stored) => {
        if (url) {
          const view = replyView(stored, { format: principal.replyFormat, formatReply: ctx.formatReply });
          await tx.insertDelivery(delivery(ctx, job, url, 'message.completed', completedPayload(job, view), stored.id));
        }
        await finish(tx, 'done', null);
      },
    }));
    ctx.onWork?.('delivery');
  });
}
