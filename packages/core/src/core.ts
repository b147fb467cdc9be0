import { adminOperations, type Admin } from './admin/admin.js';
import { openAccountEvents } from './admin/account-events.js';
import * as conversations from './admin/conversations.js';
import { createEvalOperations, type EvalOperations } from './admin/evals.js';
import * as operators from './admin/operators.js';
import type { OperatorRef, Principal } from './domain.js';
import type { CoreContext } from './context.js';
import { createEngine, engineContext, type Engine, type EngineOptions } from './engine/engine.js';
import { followEventLog, type FollowOptions, type StreamedEvent } from './engine/event-log.js';
import type { SessionView } from './schemas/session.js';
import type { ConsoleSession, Operator } from './store/operator-store.js';
import type { StoreSignal } from './store/turn-job-store.js';
import { createEmbeddingWork, type EmbeddingJobOptions, type EmbeddingWork } from './retrieval/embedding-job.js';
import { createSourceWork, type SourceJobOptions, type SourceWork } from './sources/sync-job.js';

/**
 * THE DOOR INTO THE CORE (DESIGN.md section 3b): one call builds everything an adapter (HTTP, CLI, console backend)
 * needs, on one set of ports. `api` answers the public endpoints, `admin` every operator operation, `events` the
 * session and account feeds, `work` the background part of the turn pipeline. Adding an operation means adding it
 * to one of these four, nowhere else.
 *
 * @example
 * const core = createCore({ store: createMemoryStore(), agent, cursorSecret: 'a-long-random-secret', urlProblem: () => null });
 * const account = await core.admin.createAccount({ name: 'Acme' });
 * const { data } = await core.api.createSession(principal, 'wgt_…', { visitorId: 'v1' });
 */
export function createCore(options: CoreOptions): Core {
  // The one context every operation below works with (context.ts).
  const ctx: CoreContext = { ...engineContext(options), urlProblem: options.urlProblem, passwords: options.passwords };
  const engine = createEngine(options, ctx);
  const operatorContext = () => ({ ...ctx, passwords: passwordsOf(ctx) });
  const follow = { store: ctx.store, pollMs: options.eventPollMs ?? 5_000, logger: ctx.logger };
  const admin: AdminApi = {
    ...adminOperations(ctx),
    createOperator: (accountId, input) => operators.createOperator(operatorContext(), accountId, input),
    listOperators: (accountId) => operators.listOperators(ctx, accountId),
    signIn: (input, client) => operators.signIn(operatorContext(), input, client),
    resolveConsoleSession: (token) => operators.resolveConsoleSession(ctx, token),
    signOut: (session) => operators.signOut(ctx, session),
    changePassword: (signedIn, input) => operators.changePassword(operatorContext(), signedIn, input),
    listConversations: (accountId, filters) => conversations.listConversations(ctx, accountId, filters),
    getConversation: (ref) => conversations.getConversation(ctx, ref.accountId, ref.widgetId, ref.sessionId),
    findConversation: (accountId, target) => conversations.findConversation(ctx, accountId, target.sessionId, target.widgetId),
    acceptHandoff: (ref, operator) => conversations.acceptHandoff(ctx, ref.accountId, ref.widgetId, ref.sessionId, operator),
    replyAsOperator: (ref, reply) => conversations.replyAsOperator(ctx, ref.accountId, ref.widgetId, ref.sessionId, reply.operator, reply.text),
    releaseHandoff: (ref) => conversations.releaseHandoff(ctx, ref.accountId, ref.widgetId, ref.sessionId),
    resolveConversation: (ref) => conversations.resolveConversation(ctx, ref.accountId, ref.widgetId, ref.sessionId),
    ...createEvalOperations(ctx, { sendMessage: engine.sendMessage, concurrency: options.evalConcurrency }),
  };
  const { runQueuedTurns, expireIdleSessions, drainTurns, close, openSessionEvents, ...api } = engine;
  const owner = options.owner ?? ctx.ids.random('wrk');
  const { embedPassages } = createEmbeddingWork(ctx, ctx.embeddings, { owner, ...options.embeddingJob });
  const { syncSources } = createSourceWork(ctx, { owner, ...options.sourceJob });
  return {
    api,
    admin,
    events: {
      async session(principal, target, feed) {
        const opened = await openSessionEvents(principal, target.widgetId, target.sessionId, feed.lastEventId);
        const wakesOn = (signal: StoreSignal) => signal.type === 'session-event' && signal.widgetId === opened.widgetId && signal.sessionId === opened.sessionId;
        return { widgetId: opened.widgetId, sessionId: opened.sessionId, events: followEventLog({ ...follow, ...feed, after: opened.after, read: opened.read, wakesOn }) };
      },
      async account(accountId, feed) {
        const opened = await openAccountEvents(ctx, accountId, feed.lastEventId);
        const wakesOn = (signal: StoreSignal) => signal.type === 'session-event' && signal.accountId === accountId;
        return { events: followEventLog({ ...follow, ...feed, after: opened.after, read: opened.read, wakesOn }) };
      },
    },
    work: { runQueuedTurns, expireIdleSessions, drainTurns, close, embedPassages, syncSources },
  };
}

function passwordsOf(ctx: CoreContext): operators.PasswordHasher {
  if (!ctx.passwords) throw new Error('createCore: operator sign-in and passwords need the `passwords` option (a PasswordHasher).');
  return ctx.passwords;
}

export interface CoreOptions extends EngineOptions {
  /**
   * Why a URL may not receive deliveries (scheme, credentials, a refused address), or null when it may: the policy of
   * the process (it knows whether private addresses are allowed); core knows no network.
   */
  urlProblem: (url: URL) => string | null;
  /** How operator passwords are hashed; needed by the operator operations that take a password. */
  passwords?: operators.PasswordHasher;
  /** Fallback poll of an open event feed, should a store notification be lost. Default 5,000 ms. */
  eventPollMs?: number;
  /** The embedding job's lease, batch and back-off (with `embeddings`). */
  embeddingJob?: Omit<EmbeddingJobOptions, 'owner'>;
  /** The sync job of website sources: its lease, batch, reads per host and deadline (with `reader`). */
  sourceJob?: Omit<SourceJobOptions, 'owner'>;
  /** How many cases of an eval run run at once (DESIGN.md section 12). Default 8. */
  evalConcurrency?: number;
}

export interface Core {
  /** The public API: one method per endpoint of the REST API. */
  api: Api;
  /** Every operator operation: accounts, widgets, keys, webhooks, knowledge, deliveries, analytics, operators, conversations. */
  admin: AdminApi;
  /** The live feeds, as abortable async iterators: the adapter only writes frames. */
  events: CoreEvents;
  /** The background work: the turn pipeline's (for the worker role and for shutdown), the embedding job's and the source sync job's. */
  work: BackgroundWork;
}

export type Api = Omit<Engine, 'runQueuedTurns' | 'expireIdleSessions' | 'drainTurns' | 'close' | 'openSessionEvents'>;
export type TurnWork = Pick<Engine, 'runQueuedTurns' | 'expireIdleSessions' | 'drainTurns' | 'close'>;
export type BackgroundWork = TurnWork & EmbeddingWork & SourceWork;

/** One conversation of an account, as operators name it. */
export interface ConversationRef {
  accountId: string;
  widgetId: string;
  sessionId: string;
}

export interface AdminApi extends Admin, EvalOperations {
  createOperator(accountId: string, input: unknown): Promise<Operator>;
  listOperators(accountId: string): Promise<Operator[]>;
  /** Throttled; the same refusal for an unknown email as for a wrong password. */
  signIn(input: unknown, client: { address: string }): Promise<operators.SignedIn>;
  /** The operator and session a console cookie's token stands for, or null. */
  resolveConsoleSession(token: string): Promise<{ operator: Operator; session: ConsoleSession } | null>;
  signOut(session: ConsoleSession): Promise<void>;
  /** Signs the operator out everywhere else. */
  changePassword(signedIn: { operator: Operator; session: ConsoleSession }, input: unknown): Promise<void>;

  listConversations(accountId: string, filters?: conversations.ConversationFilters): Promise<{ items: conversations.ConversationSummary[]; nextCursor: string | null }>;
  getConversation(ref: ConversationRef): Promise<conversations.Conversation>;
  /** A conversation named by session id alone (the CLI); `widgetId` when several widgets hold the id. */
  findConversation(accountId: string, target: { sessionId: string; widgetId?: string | undefined }): Promise<{ widgetId: string; sessionId: string }>;
  acceptHandoff(ref: ConversationRef, operator: OperatorRef): Promise<SessionView>;
  replyAsOperator(ref: ConversationRef, reply: { operator: OperatorRef; text: string }): Promise<conversations.ConversationMessage>;
  releaseHandoff(ref: ConversationRef): Promise<SessionView>;
  resolveConversation(ref: ConversationRef): Promise<SessionView>;
}

/** An opened feed: access was checked and the start position fixed when the promise resolved. */
export interface OpenedFeed {
  events: AsyncIterable<StreamedEvent>;
}

export interface CoreEvents {
  /**
   * A session's events (GET …/events) after `lastEventId`, or from now on: same access as get-session, refusals
   * thrown before anything is streamed. The iterator ends when `signal` aborts.
   */
  session(principal: Principal, target: { widgetId: string; sessionId: string }, feed: FeedOptions): Promise<OpenedFeed & { widgetId: string; sessionId: string }>;
  /** Every session's events of an account (the console's live inbox). */
  account(accountId: string, feed: FeedOptions): Promise<OpenedFeed>;
}

export type FeedOptions = Pick<FollowOptions, 'signal'> & { lastEventId?: string | undefined };
