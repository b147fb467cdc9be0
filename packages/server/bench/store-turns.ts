/**
 * The store's own turn transactions, called directly: what one turn costs the database with no HTTP, no engine
 * logic around it and no agent. The same transactions, in the same order and shape, as the engine's pipeline
 * (packages/core/src/engine/turns/accept.ts and run.ts) for a session with nothing queued: accept (session row
 * locked, balance checked, job inserted and claimed, the visitor's message into the history, session touched, the
 * agent's context read, all in one guarded statement), then the commit as one write (job done, reply, session
 * update, charge, turn event).
 */
import { defaultIds, type Session, type Store, type StoredMessage } from '@svc/core';
import { flatCredits } from '@svc/core/store-kit';
import { runLoad, type LoadResult } from './load.js';

const message = (session: Session, id: string, seq: number, role: 'user' | 'assistant'): StoredMessage => ({
  id,
  widgetId: session.widgetId,
  sessionId: session.id,
  seq,
  role,
  content: role === 'user' ? 'Hello, what are your opening hours?' : 'We are open 9 to 18, Monday to Saturday.',
  products: [],
  actions: [],
  forms: [],
  sessionEnded: false,
  credits: role === 'assistant' ? flatCredits(1) : null,
  usage: null,
  createdAt: new Date(),
});

/**
 * One session per concurrent worker, made once and used for every round: the sync turns' sessions live as long and
 * grow as much (a session's history and the tables grow with every turn, and a query's cost with them).
 */
export function storeSessions(store: Store, ids: { accountId: string; widgetId: string }, concurrency: number): Promise<Session[]> {
  const { accountId, widgetId } = ids;
  return Promise.all(
    Array.from({ length: concurrency }, async (_, i) => {
      const now = new Date();
      const session: Session = {
        widgetId,
        id: `bench-store-${i}-${defaultIds.random('s')}`,
        accountId,
        visitorId: 'bench',
        status: 'active',
        language: null,
        timezone: null,
        messageCount: 0,
        rating: null,
        createdAt: now,
        lastActivityAt: now,
        expiresAt: new Date(now.getTime() + 86_400_000),
        resolvedAt: null,
        pendingFormId: null,
        identitySub: null,
        creatorKeyKind: 'secret',
        creatorKeyId: null,
        handoff: null,
        handedOff: false,
        resolvedByOperator: false,
      };
      await store.insertSession(session);
      return session;
    }),
  );
}

export async function storeTurns(
  store: Store,
  ids: { accountId: string; widgetId: string; keyId: string },
  sessions: Session[],
  options: { durationMs: number },
): Promise<LoadResult> {
  const { accountId, widgetId, keyId } = ids;
  const owner = defaultIds.random('wrk');

  return runLoad({
    concurrency: sessions.length,
    durationMs: options.durationMs,
    send: async (worker) => {
      const now = new Date();
      const job = {
        id: defaultIds.sortable('job', now),
        accountId,
        keyId,
        widgetId,
        sessionId: sessions[worker]!.id,
        userMessageId: defaultIds.sortable('msg', now),
        replyMessageId: defaultIds.sortable('msg', now),
        kind: 'message' as const,
        mode: 'sync' as const,
        content: 'Hello, what are your opening hours?',
        answers: null,
        identity: null,
        timezone: null,
        status: 'running' as const,
        attempts: 1,
        leaseOwner: owner,
        leaseExpiresAt: new Date(now.getTime() + 15_000),
        createdAt: now,
        finishedAt: null,
        error: null,
      };
      // Accept, claimed at once (nothing queued on the session), so the turn starts here: one guarded write that also
      // reads the agent's context, as the engine's common path does.
      const { seq: _user, ...userMessage } = message(sessions[worker]!, job.userMessageId, 0, 'user');
      const accepted = await store.acceptTurnAtOnce({
        job,
        userMessage,
        guard: { accountId, publicCaller: false, identitySub: null, now },
        activity: { lastActivityAt: now, expiresAt: new Date(now.getTime() + 86_400_000) },
        idempotency: null,
        visitorContext: null,
        historyLimit: 20,
      });
      if (!accepted?.claimed) throw new Error('bench account or session missing, or session busy');
      // Commit: one atomic write.
      const reply = message(sessions[worker]!, job.replyMessageId, 0, 'assistant');
      const { seq: _seq, ...unnumbered } = reply;
      const stored = await store.commitTurn({
        jobId: job.id,
        owner,
        at: new Date(),
        reply: unnumbered,
        session: { pendingFormId: null, concludedAt: null },
        charge: {
          id: defaultIds.random('led'),
          accountId,
          operation: 'message.turn',
          widgetId,
          sessionId: job.sessionId,
          messageId: job.replyMessageId,
          credits: flatCredits(1),
          total: 1,
          createdAt: new Date(),
        },
        deliveries: [],
      });
      if (!stored) throw new Error('lease lost');
    },
  });
}
