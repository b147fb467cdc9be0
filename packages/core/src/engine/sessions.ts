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
  requireScope(principal, 'conversations:chat');
  const input = parseInput(createSessionRequestSchema, body);
  const widget = await loadWidget(ctx, principal, widgetId);
  await requireCredits(ctx, principal.accountId);
  const sessionId = input.sessionId ?? ctx.ids.random('sess');
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
