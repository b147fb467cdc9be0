import type { Agent } from '../agent.js';
import type { Clock } from '../clock.js';
import type { ReplyFormat } from '../domain.js';
import type { Pricing } from '../credits.js';
import type { CursorCodec } from '../cursor.js';
import type { Ids } from '../ids.js';
import type { Store } from '../store/store.js';

/** Something to tell about failures that happen after a response was sent (a slow turn that then fails). */
export interface EngineLogger {
  error(message: string, details: Record<string, unknown>): void;
}

/** What every engine operation works with: the ports and the resolved settings. */
export interface EngineContext {
  store: Store;
  agent: Agent;
  clock: Clock;
  ids: Ids;
  pricing: Pricing;
  cursors: CursorCodec;
  /** How long a sync request waits for the agent before answering 202 (spec 8: about 25 s). */
  syncTimeoutMs: number;
  /** Hard cap on one agent run; past it the agent is aborted and the turn fails. */
  agentTimeoutMs: number;
  /** How many earlier messages the agent sees. */
  historyWindow: number;
  logger: EngineLogger;
  /** Converts the agent's Markdown into the caller's reply format (spec 5.1.4). */
  formatReply: ReplyFormatter;
  /** Told when a delivery was queued, so the delivery worker in this process starts at once instead of at its next poll. */
  onWork?: (kind: 'delivery') => void;
}

export type ReplyFormatter = (markdown: string, format: ReplyFormat) => string;

/** What every engine method returns: the HTTP adapter only adds the envelope. */
export interface EngineResult<T> {
  status: 200 | 201 | 202;
  data: T;
  creditsConsumed: number;
  /** A repeat of an earlier request with the same `Idempotency-Key`, answered from it (turns). */
  replayed?: true;
}

export interface PageResult<T> {
  status: 200;
  data: T[];
  pagination: { cursor: string | null; hasMore: boolean; total?: number };
  creditsConsumed: number;
}
