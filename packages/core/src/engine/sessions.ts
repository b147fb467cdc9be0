import type { Principal, Session } from '../domain.js';
import { flatCredits } from '../credits.js';
import { SvcError } from '../errors.js';
import { parseInput } from '../schemas/validate.js';
import {
  createSessionRequestSchema,
  rateSessionRequestSchema,
  type CreatedSession,
  type EndedSession,
  type RatedSession,
  type SessionView,
} from '../schemas/session.js';
import { applyExpiry, assertResumable, end, rate, touch } from '../session-machine.js';
import { assertIdentityMatches, isVisibleTo, loadSession, loadWidget, requireCredits, requireScope } from './access.js';
import { charge } from './billing.js';
import type { EngineResult } from './context.js';
import type { EngineContext } from '../context.js';
import { createdSessionView, sessionView } from './views.js';
import { recordExpiry, wakeDeliveries, writeLifecycleEvent } from './lifecycle.js';
import type { Delivery } from '../store/turn-job-store.js';
import { sha256Hex } from '../signing.js';

/**
 * Everything that changes a session (create, resume, end, rate, and each step of a turn) is one short transaction
 * that starts by locking the session's row, so changes apply one at a time and no lock outlives its transaction
 * (DESIGN.md section 3a).
 */

/** POST /widgets/{widgetId}/conversations (spec 4.1): 201 new, 200 resumed, 409 id of an ended session. */
export async function createSession(
  ctx: EngineContext,
  principal: Principal,
  widgetId: string,
  body: unknown,
): Promise<EngineResult<CreatedSession>> {
  return startSession(ctx, principal, { widgetId, body });
}

/**
 * POST /widgets/{widgetId}/chat (DESIGN.md section 4, revised): the session an AI SDK chat `id` names for this key,
 * created on first use. Its id is derived from the key and the chat id (`chat_…`), never taken from the caller: a
 * public key still cannot choose a session's id, two keys' chats never meet, and a public key never reaches a session
 * a server key created. An existing session is only looked up (the turn that follows touches it).
 */
export async function openChat(ctx: EngineContext, principal: Principal, chat: ChatRef): Promise<{ sessionId: string; created: boolean }> {
  requireScope(principal, 'conversations:chat');
  const sessionId = `chat_${(await sha256Hex(`${principal.keyId}\u0000${chat.chatId}`)).slice(0, 32)}`;
  const widget = await loadWidget(ctx, principal, chat.widgetId);
  const stored = await ctx.store.getSession(widget.id, sessionId);
  if (stored && isVisibleTo(principal, stored)) return { sessionId, created: false };
  if (chat.create === false) throw new SvcError('session_not_found', `Chat ${chat.chatId} has no conversation yet.`);
  const created = await startSession(ctx, principal, { widgetId: chat.widgetId, body: { visitorId: chat.visitorId ?? chat.chatId }, serverChosenId: sessionId });
  return { sessionId: created.data.sessionId, created: created.status === 201 };
}

/** An AI SDK chat of a widget; `create: false` only looks its conversation up. */
export interface ChatRef {
  widgetId: string;
  chatId: string;
  visitorId?: string | undefined;
  create?: boolean;
}

async function startSession(
  ctx: EngineContext,
  principal: Principal,
  call: { widgetId: string; body: unknown; serverChosenId?: string },
): Promise<EngineResult<CreatedSession>> {
  const { widgetId, body } = call;
  requireScope(principal, 'conversations:chat');
  const input = parseInput(createSessionRequestSchema, body);
  const widget = await loadWidget(ctx, principal, widgetId);
  await requireCredits(ctx, principal.accountId);
  const sessionId = call.serverChosenId ?? input.sessionId ?? ctx.ids.random('sess');
  const identitySub = principal.kind === 'public' ? (principal.identity?.sub ?? null) : null;
  const price = flatCredits(ctx.pricing.createSession);

  // Lifecycle rows of the attempt that committed, to wake the delivery worker once it has.
  let written: Delivery[] = [];
  const attempt = async (): Promise<EngineResult<CreatedSession>> => {
    written = [];
    const result = await ctx.store.transaction(async (tx): Promise<EngineResult<CreatedSession> | { refusal: unknown }> => {
      const now = ctx.clock.now();
      const stored = await tx.lockSession(widget.id, sessionId);
      // Invisible to this caller means treated as absent: a public key then gets the same answer as for an unused id.
      const existing = stored && isVisibleTo(principal, stored) ? stored : null;

      if (existing) {
        const current = applyExpiry(existing, now);
        try {
          assertResumable(current, input.visitorId);
          assertIdentityMatches(principal, current);
        } catch (refusal) {
          // Refused, but the expiry found on the way is recorded (as reads do): it commits, then the refusal is thrown.
          if (current.status !== existing.status) written.push(...(await recordExpiry(ctx, tx, existing)));
          return { refusal };
        }
        const resumed = touch(current, now, widget.sessionTtlSeconds);
        await tx.updateSession(widget.id, sessionId, {
          status: resumed.status,
          lastActivityAt: resumed.lastActivityAt,
          expiresAt: resumed.expiresAt,
          ...(input.language === undefined ? {} : { language: input.language }),
          ...(input.timezone === undefined ? {} : { timezone: input.timezone }),
        });
        if (input.visitorContext) await tx.upsertVisitor(principal.accountId, input.visitorId, input.visitorContext, now);
        const creditsConsumed = await charge(ctx, tx, {
          accountId: principal.accountId,
          operation: 'session.resume',
          credits: price,
          widgetId: widget.id,
          sessionId,
        });
        return { status: 200, data: createdSessionView(resumed, true), creditsConsumed };
      }

      if (principal.kind === 'public' && input.sessionId !== undefined) {
        // Browsers cannot be trusted to pick ids: a public key resumes ids the server gave out, never invents one.
        throw new SvcError('validation_failed', 'A public key cannot choose the id of a new session; omit sessionId.', {
          field: 'sessionId',
        });
      }
      const session: Session = {
        widgetId: widget.id,
        id: sessionId,
        accountId: principal.accountId,
        visitorId: input.visitorId,
        status: 'active',
        language: input.language ?? null,
        timezone: input.timezone ?? null,
        messageCount: 0,
        rating: null,
        createdAt: now,
        lastActivityAt: now,
        expiresAt: new Date(now.getTime() + widget.sessionTtlSeconds * 1000),
        resolvedAt: null,
        pendingFormId: null,
        identitySub,
        creatorKeyKind: principal.kind,
        creatorKeyId: principal.keyId,
        handoff: null,
        handedOff: false,
        resolvedByOperator: false,
      };
      const { inserted } = await tx.insertSession(session);
      // Created meanwhile by a concurrent call with the same id (there was no row to lock): resume it instead.
      if (!inserted) throw CREATED_CONCURRENTLY;
      written.push(...(await writeLifecycleEvent(ctx, tx, 'session.created', session)));
      if (input.visitorContext) await tx.upsertVisitor(principal.accountId, input.visitorId, input.visitorContext, now);
      const creditsConsumed = await charge(ctx, tx, {
        accountId: principal.accountId,
        operation: 'session.create',
        credits: price,
        widgetId: widget.id,
        sessionId,
      });
      return { status: 201, data: createdSessionView(session, false), creditsConsumed };
    });
    wakeDeliveries(ctx, written);
    if ('refusal' in result) throw result.refusal;
    return result;
  };

  try {
    return await attempt();
  } catch (error) {
    if (error !== CREATED_CONCURRENTLY) throw error;
    // The row exists now, so the second attempt locks it and resumes (or refuses an ended session's id).
    return attempt().catch((again: unknown) => {
      if (again !== CREATED_CONCURRENTLY) throw again;
      throw new SvcError('session_id_taken', `Session id ${sessionId} is already in use; use a new id or omit sessionId.`, { field: 'sessionId' });
    });
  }
}

const CREATED_CONCURRENTLY = new Error('session created concurrently');

/** GET …/{sessionId} (spec 4.6). */
export async function getSession(
  ctx: EngineContext,
  principal: Principal,
  widgetId: string,
  sessionId: string,
): Promise<EngineResult<SessionView>> {
  requireScope(principal, 'conversations:chat');
  const widget = await loadWidget(ctx, principal, widgetId);
  const session = await loadSession(ctx, widget, sessionId, principal);
  await requireCredits(ctx, principal.accountId);
  const creditsConsumed = await ctx.store.transaction((tx) =>
    charge(ctx, tx, {
      accountId: principal.accountId,
      operation: 'session.get',
      credits: flatCredits(ctx.pricing.getSession),
      widgetId: widget.id,
      sessionId,
    }),
  );
  return { status: 200, data: sessionView(session), creditsConsumed };
}

/** POST …/end (spec 4.4). Ending twice answers the original `resolvedAt` at no cost, so retries are safe. */
export async function endSession(
  ctx: EngineContext,
  principal: Principal,
  widgetId: string,
  sessionId: string,
): Promise<EngineResult<EndedSession>> {
  requireScope(principal, 'conversations:chat');
  const widget = await loadWidget(ctx, principal, widgetId);
  const written: Delivery[] = [];
  const result = await ctx.store.transaction(async (tx) => {
    const session = await loadSession(ctx, widget, sessionId, principal, tx, true);
    const outcome = end(session, ctx.clock.now());
    const view = (s: Session): EndedSession => ({ sessionId: s.id, status: 'resolved', resolvedAt: s.resolvedAt!.toISOString() });
    if (!outcome.changed) return { status: 200 as const, data: view(outcome.session), creditsConsumed: 0 };

    await requireCredits(ctx, principal.accountId, tx);
    await tx.updateSession(widget.id, sessionId, {
      status: 'resolved',
      resolvedAt: outcome.session.resolvedAt,
      pendingFormId: null,
    });
    const creditsConsumed = await charge(ctx, tx, {
      accountId: principal.accountId,
      operation: 'session.end',
      credits: flatCredits(ctx.pricing.endSession),
      widgetId: widget.id,
      sessionId,
    });
    written.push(...(await writeLifecycleEvent(ctx, tx, 'session.resolved', outcome.session, { reason: 'ended' })));
    return { status: 200 as const, data: view(outcome.session), creditsConsumed };
  });
  wakeDeliveries(ctx, written);
  return result;
}

/** POST …/rate (spec 4.5): resolved or expired sessions only; a new rating replaces the old one. */
export async function rateSession(
  ctx: EngineContext,
  principal: Principal,
  widgetId: string,
  sessionId: string,
  body: unknown,
): Promise<EngineResult<RatedSession>> {
  requireScope(principal, 'conversations:chat');
  const input = parseInput(rateSessionRequestSchema, body);
  const widget = await loadWidget(ctx, principal, widgetId);
  const written: Delivery[] = [];
  const result = await ctx.store.transaction(async (tx) => {
    const session = await loadSession(ctx, widget, sessionId, principal, tx, true);
    const rated = rate(session, input.rating);
    await requireCredits(ctx, principal.accountId, tx);
    await tx.updateSession(widget.id, sessionId, { rating: rated.rating });
    const creditsConsumed = await charge(ctx, tx, {
      accountId: principal.accountId,
      operation: 'session.rate',
      credits: flatCredits(ctx.pricing.rateSession),
      widgetId: widget.id,
      sessionId,
    });
    written.push(...(await writeLifecycleEvent(ctx, tx, 'session.rated', rated)));
    return { status: 200 as const, data: { sessionId, rating: input.rating }, creditsConsumed };
  });
  wakeDeliveries(ctx, written);
  return result;
}
