import { totalCredits, type Credits } from '../credits.js';
import type { LedgerEntry } from '../domain.js';
import type { StoreOps } from '../store/store.js';
import type { EngineContext } from '../context.js';

export interface Charge {
  accountId: string;
  operation: string;
  credits: Credits;
  widgetId?: string;
  sessionId?: string;
  messageId?: string;
}

/**
 * Debits the account and writes the ledger row, inside the caller's transaction so the debit commits with
 * the work it pays for. Returns the total charged.
 */
export async function charge(ctx: Pick<EngineContext, 'ids' | 'clock'>, tx: StoreOps, item: Charge): Promise<number> {
  const entry = ledgerEntry(ctx, item);
  if (!entry) return 0;
  await tx.chargeAccount(entry);
  return entry.total;
}

/** The ledger row of a charge; null when it costs nothing (no debit, no row). */
export function ledgerEntry(ctx: Pick<EngineContext, 'ids' | 'clock'>, item: Charge): LedgerEntry | null {
  const total = totalCredits(item.credits);
  if (total === 0) return null;
  return {
    id: ctx.ids.random('led'),
    accountId: item.accountId,
    operation: item.operation,
    widgetId: item.widgetId ?? null,
    sessionId: item.sessionId ?? null,
    messageId: item.messageId ?? null,
    credits: item.credits,
    total,
    createdAt: ctx.clock.now(),
  };
}
