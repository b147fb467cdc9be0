import { totalCredits, type Credits } from '../credits.js';
import type { StoreOps } from '../store/store.js';
import type { EngineContext } from './context.js';

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
export async function charge(ctx: EngineContext, tx: StoreOps, item: Charge): Promise<number> {
  const total = totalCredits(item.credits);
  if (total === 0) return 0;
  await tx.chargeAccount({
    id: ctx.ids.random('led'),
    accountId: item.accountId,
    operation: item.operation,
    widgetId: item.widgetId ?? null,
    sessionId: item.sessionId ?? null,
    messageId: item.messageId ?? null,
    credits: item.credits,
    total,
    createdAt: ctx.clock.now(),
  });
  return total;
}
