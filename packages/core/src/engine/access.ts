import type { Account, Principal, Scope, Session, Widget } from '../domain.js';
import { SvcError } from '../errors.js';
import { applyExpiry } from '../session-machine.js';
import { recordExpiry } from './lifecycle.js';
import type { StoreOps } from '../store/store.js';
import type { EngineContext } from '../context.js';

export function requireScope(principal: Principal, scope: Scope): void {
  if (!principal.scopes.includes(scope)) {
    throw new SvcError('insufficient_scope', `This API key lacks the "${scope}" scope needed for this endpoint.`);
  }
}

export function requireAnyScope(principal: Principal, scopes: readonly Scope[]): void {
  if (!scopes.some((scope) => principal.scopes.includes(scope))) {
    throw new SvcError('insufficient_scope', `This API key needs one of the scopes ${scopes.map((s) => `"${s}"`).join(', ')}.`);
  }
}

/**
 * The widget, if the caller may address it. Another account's widget is reported as missing, not forbidden,
 * so ids of other tenants cannot be probed.
 */
export async function loadWidget(ctx: EngineContext, principal: Principal, widgetId: string): Promise<Widget> {
  const widget = await ctx.store.getWidget(widgetId);
  if (!widget || widget.accountId !== principal.accountId || (principal.widgetId !== null && principal.widgetId !== widgetId)) {
    throw new SvcError('widget_not_found', `Widget ${widgetId} was not found.`);
  }
  return widget;
}

/**
 * A session bound to a verified identity (created with a widget identity token) is that person's: a public key
 * caller presenting no token or another `sub` is refused (DESIGN.md section 4). Server keys are trusted.
 */
export function assertIdentityMatches(principal: Principal, session: Session): void {
  if (principal.kind !== 'public' || session.identitySub === null) return;
  if (principal.identity?.sub !== session.identitySub) {
    throw new SvcError('identity_mismatch', `Session ${session.id} belongs to another signed-in visitor; start a new session.`);
  }
}

/**
 * Whether the caller may see the session at all. A session a server key created is never reachable with a public
 * key, whatever its id (DESIGN.md section 4): client-chosen ids such as order numbers are guessable, and must not
 * open a conversation to a browser. Such a session is reported exactly as a missing one.
 */
export function isVisibleTo(principal: Principal, session: Session): boolean {
  return principal.kind !== 'public' || session.creatorKeyKind === 'public';
}

/**
 * The session as of now: expiry is applied on access and persisted, so reads and the sweep agree. With `lock`, read
 * with its row locked for the rest of `store`'s transaction.
 */
export async function loadSession(
  ctx: EngineContext,
  widget: Widget,
  sessionId: string,
  principal: Principal | null,
  store: StoreOps = ctx.store,
  lock = false,
): Promise<Session> {
  const stored = lock ? await store.lockSession(widget.id, sessionId) : await store.getSession(widget.id, sessionId);
  return checkSession(ctx, { widget, sessionId, stored, principal }, store);
}

/** The checks of {@link loadSession} on a session already read. */
export async function checkSession(
  ctx: EngineContext,
  read: { widget: Widget; sessionId: string; stored: Session | null; principal: Principal | null },
  store: StoreOps,
): Promise<Session> {
  const { widget, sessionId, stored, principal } = read;
  if (!stored || stored.accountId !== widget.accountId || (principal && !isVisibleTo(principal, stored))) {
    throw new SvcError('session_not_found', `Session ${sessionId} was not found on widget ${widget.id}.`);
  }
  if (principal) assertIdentityMatches(principal, stored);
  const current = applyExpiry(stored, ctx.clock.now());
  if (current.status !== stored.status) await recordExpiry(ctx, store, stored);
  return current;
}

/** 402 before any work (spec 7): balance exhausted or payment overdue. */
export async function requireCredits(ctx: EngineContext, accountId: string, store: StoreOps = ctx.store): Promise<Account> {
  return assertCredits(await store.getAccount(accountId));
}

/** The check of {@link requireCredits} on an account already read. */
export function assertCredits(account: Account | null): Account {
  if (!account) throw new SvcError('invalid_api_key', 'The account of this API key no longer exists.');
  if (account.status === 'overdue') {
    throw new SvcError('insufficient_credits', 'Payment for this account is overdue; settle it in the console to continue.');
  }
  if (account.balance <= 0) {
    throw new SvcError('insufficient_credits', 'The credit balance of this account is exhausted; add credits to continue.');
  }
  return account;
}
