/**
 * `pnpm bench`: sync turns per second and latency through the real HTTP server on the embedded store (PGlite)
 * with an instant agent, beside two baselines measured in the same run:
 *   1. a bare Hono JSON echo on the same Node HTTP server: the ceiling HTTP and JSON impose;
 *   2. the store's own turn transactions (two messages, session update, debit, ledger) without HTTP or agent.
 * Figures are only comparable within one run: read the ratios.
 */
import { serve } from '@hono/node-server';
import { Hono } from 'hono';
import type { AddressInfo } from 'node:net';
import { createInstantAgent } from '@svc/agents';
import { defaultIds, flatCredits, type Store } from '@svc/core';
import { createPgliteStore } from '@svc/store-postgres';
import { createAccount } from '../src/admin/accounts.js';
import { createApiKey } from '../src/admin/keys.js';
import { createWidget } from '../src/admin/widgets.js';
import { createLogger } from '../src/logger.js';
import { listen } from '../src/node-server.js';
import { createRuntime } from '../src/runtime.js';
import { runLoad, type LoadResult } from './load.js';

const DURATION_MS = Number(process.env.BENCH_DURATION_MS ?? 5000);
const CONCURRENCY = Number(process.env.BENCH_CONCURRENCY ?? 8);

async function echoBaseline(): Promise<LoadResult> {
  const app = new Hono();
  app.post('/echo', async (c) => c.json({ data: await c.req.json(), meta: { creditsConsumed: 0 } }));
  const server = await new Promise<ReturnType<typeof serve>>((resolve) => {
    const s = serve({ fetch: app.fetch, port: 0, hostname: '127.0.0.1' }, () => resolve(s));
  });
  const { port } = server.address() as AddressInfo;
  const result = await runLoad({
    concurrency: CONCURRENCY,
    durationMs: DURATION_MS,
    send: async () => {
      const res = await fetch(`http://127.0.0.1:${port}/echo`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ content: 'Hello, what are your opening hours?' }),
      });
      await res.json();
    },
  });
  server.close();
  return result;
}

async function storeBaseline(store: Store, accountId: string, widgetId: string): Promise<LoadResult> {
  const sessions = await Promise.all(
    Array.from({ length: CONCURRENCY }, async (_, i) => {
      const now = new Date();
      const session = {
        widgetId,
        id: `bench-store-${i}`,
        accountId,
        visitorId: 'bench',
        status: 'active' as const,
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
      };
      await store.insertSession(session);
      return session;
    }),
  );
  const message = (sessionId: string, seq: number, role: 'user' | 'assistant') => ({
    id: defaultIds.sortable('msg', new Date()),
    widgetId,
    sessionId,
    seq,
    role,
    content: role === 'user' ? 'Hello, what are your opening hours?' : 'Thanks for your message.',
    products: [],
    actions: [],
    forms: [],
    sessionEnded: false,
    credits: null,
    usage: null,
    createdAt: new Date(),
  });
  return runLoad({
    concurrency: CONCURRENCY,
    durationMs: DURATION_MS,
    send: async (worker) => {
      {
        const session = sessions[worker]!;
        const seq = session.messageCount;
        await store.transaction(async (tx) => {
          await tx.insertMessage(message(session.id, seq + 1, 'user'));
          await tx.updateSession(widgetId, session.id, { messageCount: seq + 1, lastActivityAt: new Date() });
        });
        await store.transaction(async (tx) => {
          await tx.insertMessage(message(session.id, seq + 2, 'assistant'));
          await tx.updateSession(widgetId, session.id, { messageCount: seq + 2 });
          await tx.debitAccount(accountId, 1);
          await tx.insertLedgerEntry({
            id: defaultIds.random('led'),
            accountId,
            operation: 'message.turn',
            widgetId,
            sessionId: session.id,
            messageId: null,
            credits: flatCredits(1),
            total: 1,
            createdAt: new Date(),
          });
        });
        session.messageCount = seq + 2;
      }
    },
  });
}

async function serviceTurns(): Promise<{ turns: LoadResult; store: LoadResult }> {
  const store = await createPgliteStore({});
  const account = await createAccount(store, { name: 'Bench', credits: 1e12 });
  const widget = await createWidget(store, { accountId: account.id, name: 'Bench' });
  const { key } = await createApiKey(store, { accountId: account.id, scopes: ['conversations:chat'] });
  const runtime = await createRuntime({
    config: { cursorSecret: 'bench-cursor-secret-0123456789', syncTimeoutMs: 25_000, agentTimeoutMs: 120_000 },
    store,
    logger: createLogger('silent'),
    agent: createInstantAgent(),
  });
  const server = await listen(runtime, { port: 0, host: '127.0.0.1', sweepIntervalMs: 3_600_000 });
  const headers = { 'content-type': 'application/json', 'x-api-key': key };
  const base = `${server.url}/widgets/${widget.id}/conversations`;
  const sessionIds = await Promise.all(
    Array.from({ length: CONCURRENCY }, async (_, i) => {
      const res = await fetch(base, { method: 'POST', headers, body: JSON.stringify({ visitorId: `bench-${i}` }) });
      return ((await res.json()) as { data: { sessionId: string } }).data.sessionId;
    }),
  );
  const turns = await runLoad({
    concurrency: CONCURRENCY,
    durationMs: DURATION_MS,
    send: async (worker) => {
      const res = await fetch(`${base}/${sessionIds[worker]}/messages`, {
        method: 'POST',
        headers,
        body: JSON.stringify({ content: 'Hello, what are your opening hours?' }),
      });
      if (res.status !== 200) throw new Error(`turn failed: ${res.status} ${await res.text()}`);
      await res.json();
    },
  });
  await server.close();
  const storeResult = await storeBaseline(store, account.id, widget.id);
  await store.close();
  return { turns, store: storeResult };
}

function row(name: string, r: LoadResult, baseline: LoadResult): string {
  return [
    name.padEnd(44),
    r.perSecond.toFixed(0).padStart(8),
    r.p50Ms.toFixed(2).padStart(9),
    r.p99Ms.toFixed(2).padStart(9),
    `${(r.perSecond / baseline.perSecond).toFixed(3)}`.padStart(10),
  ].join(' ');
}

const echo = await echoBaseline();
const { turns, store } = await serviceTurns();
console.log(`\nSync turns, ${CONCURRENCY} concurrent clients, ${DURATION_MS / 1000}s each, Node ${process.version}\n`);
console.log(`${'measurement'.padEnd(44)} ${'per s'.padStart(8)} ${'p50 ms'.padStart(9)} ${'p99 ms'.padStart(9)} ${'vs echo'.padStart(10)}`);
console.log(row('baseline: bare Hono JSON echo (HTTP)', echo, echo));
console.log(row('baseline: store turn transactions (PGlite)', store, echo));
console.log(row('sync turns via HTTP (PGlite, instant agent)', turns, echo));
console.log(`\nturns / store transactions: ${(turns.perSecond / store.perSecond).toFixed(3)}`);
console.log(`turns / echo:               ${(turns.perSecond / echo.perSecond).toFixed(3)}`);
