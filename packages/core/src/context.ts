import type { Agent } from './agent.js';
import type { PasswordHasher } from './admin/operators.js';
import type { Clock } from './clock.js';
import type { Pricing } from './credits.js';
import type { CursorCodec } from './cursor.js';
import type { EngineLogger, ReplyFormatter } from './engine/context.js';
import type { Ids } from './ids.js';
import type { Store } from './store/store.js';
import type { KnowledgeRetriever } from './retrieval/retrieve.js';
import type { EmbeddingProvider } from './retrieval/providers.js';
import type { SiteReader } from './sources/site-reader.js';

/**
 * THE context (DESIGN.md section 3b): what every operation of the core works with, the ports and the resolved
 * settings, built once by `createCore`. Operations declare the part they read (`Pick<CoreContext, …>`), so a test can
 * hand one exactly that.
 */
export interface CoreContext {
  store: Store;
  agent: Agent;
  /** The one retrieval (DESIGN.md section 11) behind `…/search`; the agents are given the same one. */
  retriever: KnowledgeRetriever;
  /** The embedding provider whose vectors the background job computes and retrieval reads; absent: full text only. */
  embeddings?: EmbeddingProvider | undefined;
  /** How website sources are read (DESIGN.md section 11 "Sources"); absent: website sources are refused. */
  reader?: SiteReader | undefined;
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
  /**
   * Told when a delivery was queued, or passages were added (they need vectors), so the worker in this process
   * starts at once instead of at its next poll.
   */
  onWork?: (kind: 'delivery' | 'embedding' | 'source') => void;
  /**
   * Why a URL may not receive deliveries (scheme, credentials, a refused address), or null when it may: the policy of
   * the process running the core (it knows whether private addresses are allowed); core knows no network.
   */
  urlProblem: (url: URL) => string | null;
  /** How operator passwords are hashed, when the process manages operators. */
  passwords?: PasswordHasher | undefined;
}

// The parts of the context each group of operations reads: views of the one context, never a second one.

/** The public API's operations and the turn pipeline: everything but the operator-side policy. */
export type EngineContext = Omit<CoreContext, 'urlProblem' | 'passwords'>;
/** Operator operations on an account's configuration (widgets, keys, webhooks, knowledge, deliveries, analytics). */
export type AdminContext = Pick<CoreContext, 'store' | 'retriever' | 'clock' | 'ids' | 'urlProblem'> & Partial<Pick<CoreContext, 'embeddings' | 'onWork' | 'reader'>>;
/** Operators and their console sessions: a password hasher is required here. */
export type OperatorContext = Pick<CoreContext, 'store' | 'clock' | 'ids'> & { passwords: PasswordHasher };
/** Operators' work on conversations (handoff, replies): the reply formatter and the delivery wake-up are optional. */
export type ConversationPorts = Pick<CoreContext, 'store' | 'clock' | 'ids'> & Partial<Pick<CoreContext, 'formatReply' | 'onWork'>>;
