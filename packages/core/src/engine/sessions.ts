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
import type { EngineContext, EngineResult } from './context.js';
import { createdSessionView, sessionView } from './views.js';

/**
 * Two locks per session. The write lock is held briefly by everything that changes the session (numbering a
 * message, committing a reply, end, rate), so writes apply in arrival order. The turn lock is held for a whole
 * agent run, so turns never overlap; queuing a callback turn needs only the write lock and answers 202 at once.
 * Order: the turn lock is always taken before the write lock, never the other way.
 */
export const sessionLock = (widgetId: string, sessionId: string): string => `session:${widgetId}:${sessionId}`;
export const turnLock = (widgetId: string, sessionId: string): string => `turn:${widgetId}:${sessionId}`;

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

  return ctx.store.withLock(sessionLock(widget.id, sessionId), async () => {
    const now = ctx.clock.now();
    const stored = await ctx.store.getSession(widget.id, sessionId);
    // Invisible to this caller means treated as absent: a public key then gets the same answer as for an unused id.
    const existing = stored && isVisibleTo(principal, stored) ? stored : null;

    if (existing) {
      const current = applyExpiry(existing, now);
      if (current.status !== existing.status) await ctx.store.updateSession(widget.id, sessionId, { status: current.status });
      assertResumable(current, input.visitorId);
      assertIdentityMatches(principal, current);
      const resumed = touch(current, now, widget.sessionTtlSeconds);
      const creditsConsumed = await ctx.store.transaction(async (tx) => {
        await tx.updateSession(widget.id, sessionId, {
          lastActivityAt: resumed.lastActivityAt,
          expiresAt: resumed.expiresAt,
          ...(input.language === undefined ? {} : { language: input.language }),
          ...(input.timezone === undefined ? {} : { timezone: input.timezone }),
        });
        if (input.visitorContext) await tx.upsertVisitor(principal.accountId, input.visitorId, input.visitorContext, now);
        return charge(ctx, tx, { accountId: principal.accountId, operation: 'session.resume', credits: price, widgetId: widget.id, sessionId });
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
    };
    const creditsConsumed = await ctx.store.transaction(async (tx) => {
      const { inserted } = await tx.insertSession(session);
      if (!inserted) {
        throw new SvcError('session_id_taken', `Session id ${sessionId} is already in use; use a new id or omit sessionId.`, {
          field: 'sessionId',
        });
      }
      if (input.visitorContext) await tx.upsertVisitor(principal.accountId, input.visitorId, input.visitorContext, now);
      return charge(ctx, tx, { accountId: principal.accountId, operation: 'session.create', credits: price, widgetId: widget.id, sessionId });
    });
    return { status: 201, data: createdSessionView(session, false), creditsConsumed };
  });
}

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
  return ctx.store.withLock(sessionLock(widget.id, sessionId), async () => {
    const session = await loadSession(ctx, widget, sessionId, principal);
    const outcome = end(session, ctx.clock.now());
    const view = (s: Session): EndedSession => ({ sessionId: s.id, status: 'resolved', resolvedAt: s.resolvedAt!.toISOString() });
    if (!outcome.changed) return { status: 200, data: view(outcome.session), creditsConsumed: 0 };

    await requireCredits(ctx, principal.accountId);
    const creditsConsumed = await ctx.store.transaction(async (tx) => {
      await tx.updateSession(widget.id, sessionId, {
        status: 'resolved',
        resolvedAt: outcome.session.resolvedAt,
        pendingFormId: null,
      });
      return charge(ctx, tx, {
        accountId: principal.accountId,
        operation: 'session.end',
        credits: flatCredits(ctx.pricing.endSession),
        widgetId: widget.id,
        sessionId,
      });
    });
    return { status: 200, data: view(outcome.session), creditsConsumed };
  });
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
  return ctx.store.withLock(sessionLock(widget.id, sessionId), async () => {
    const session = await loadSession(ctx, widget, sessionId, principal);
    const rated = rate(session, input.rating);
    await requireCredits(ctx, principal.accountId);
    const creditsConsumed = await ctx.store.transaction(async (tx) => {
      await tx.updateSession(widget.id, sessionId, { rating: rated.rating });
      return charge(ctx, tx, {
        accountId: principal.accountId,
        operation: 'session.rate',
        credits: flatCredits(ctx.pricing.rateSession),
        widgetId: widget.id,
        sessionId,
      });
    });
    return { status: 200, data: { sessionId, rating: input.rating }, creditsConsumed };
  });
}
