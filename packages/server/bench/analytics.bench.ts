/**
 * `pnpm bench` (analytics): the analytics endpoint's time for an account with 10 conversations against one with 2,000
 * (DESIGN.md section 12). Before the per-day aggregates the 2,000-conversation account took about 70 times as long.
 *
 * Both accounts live in one PGlite database (and PostgreSQL when SVC_BENCH_DATABASE_URL or SVC_TEST_DATABASE_URL is
 * set), their conversations spread over the last 30 days, each with 3 visitor messages and 3 replies (outcomes,
 * credits, ledger rows), some resolved, rated or handed off, written through the store as the turn pipeline writes
 * them. The analytics of the last 30 days (what the console asks for) is read through core's operator operation, in
 * interleaved rounds so the machine's load affects both alike. Reported: p50 and p95 of each, and the p50 ratio.
 */
import pg from 'pg';
import { randomBase62, type AdminApi, type Session, type StoredMessage, type Store } from '@svc/core';
import { createPgliteStore, createPostgresStore } from '@svc/store-postgres';
import { operatorAdmin } from '../src/cli/operator-admin.js';
import { summarise, type LoadResult } from './load.js';

const SMALL = 10;
const LARGE = Number(process.env.BENCH_ANALYTICS_CONVERSATIONS ?? 2_000);
const REQUESTS = Number(process.env.BENCH_ANALYTICS_REQUESTS ?? 100);
const ROUNDS = 5;
const DAY_MS = 86_400_000;
const POSTGRES_URL = process.env.SVC_BENCH_DATABASE_URL ?? process.env.SVC_TEST_DATABASE_URL;
const OUTCOMES = ['answered', 'answered', 'unanswered', 'handed_off'] as const;

const credits = (chat: number) => ({ chat, retrieval: 1, orchestration: 0, embedding: 0, rerank: 0, plugin: 0, pluginRerank: 0, crawler: 0 });

/** An account with one widget and `conversations` sessions over the last 30 days; returns the account id. */
async function fill(store: Store, admin: AdminApi, conversations: number): Promise<string> {
  const account = await admin.createAccount({ name: `Bench ${conversations}`, credits: 1e9 });
  const widget = await admin.createWidget({ accountId: account.id, name: 'Bench', knowledgeBaseIds: [] });
  const now = Date.now();
  for (let i = 0; i < conversations; i++) {
    const createdAt = new Date(now - ((i * 7919) % (29 * DAY_MS)) - 60_000);
    const id = `sess_${randomBase62(22)}`;
    const session: Session = {
      widgetId: widget.id,
      id,
      accountId: account.id,
      visitorId: `v${i}`,
      status: 'active',
      language: null,
      timezone: null,
      messageCount: 0,
      rating: null,
      createdAt,
      lastActivityAt: createdAt,
      expiresAt: new Date(now + DAY_MS),
      resolvedAt: null,
      pendingFormId: null,
      identitySub: null,
      creatorKeyKind: 'secret',
      creatorKeyId: null,
      handoff: null,
      handedOff: false,
      resolvedByOperator: false,
    };
    await store.transaction(async (tx) => {
      await tx.insertSession(session);
      for (let turn = 0; turn < 3; turn++) {
        const at = new Date(createdAt.getTime() + turn * 10_000);
        const base = { widgetId: widget.id, sessionId: id, products: [], actions: [], forms: [], usage: null };
        const visitor: StoredMessage = { ...base, id: `msg_${randomBase62(22)}`, seq: turn * 2 + 1, role: 'user', content: `Question ${turn}`, sessionEnded: false, credits: null, createdAt: at };
        const reply: StoredMessage = {
          ...base,
          id: `msg_${randomBase62(22)}`,
          seq: turn * 2 + 2,
          role: 'assistant',
          content: `Answer ${turn}`,
          sessionEnded: turn === 2 && i % 3 === 0,
          credits: credits(0.5),
          createdAt: new Date(at.getTime() + 1_000),
          sources: [],
          outcome: OUTCOMES[(i + turn) % OUTCOMES.length]!,
          confidence: 0.5,
        };
        await tx.insertMessage(visitor);
        await tx.insertMessage(reply);
        await tx.chargeAccount({ id: `led_${randomBase62(22)}`, accountId: account.id, operation: 'message.turn', widgetId: widget.id, sessionId: id, messageId: reply.id, credits: credits(0.5), total: 1.5, createdAt: reply.createdAt });
      }
      await tx.updateSession(widget.id, id, {
        messageCount: 6,
        ...(i % 3 === 0 ? { status: 'resolved' as const, resolvedAt: new Date(createdAt.getTime() + 40_000) } : {}),
        ...(i % 5 === 0 ? { rating: i % 2 ? ('negative' as const) : ('positive' as const) } : {}),
        ...(i % 7 === 0 ? { handedOff: true } : {}),
      });
    });
  }
  return account.id;
}

interface Figures {
  name: string;
  fillS: number;
  small: LoadResult;
  large: LoadResult;
}

async function benchStore(name: string, store: Store): Promise<Figures> {
  const admin = operatorAdmin(store);
  const started = performance.now();
  const small = await fill(store, admin, SMALL);
  const large = await fill(store, admin, LARGE);
  const fillS = (performance.now() - started) / 1000;
  const check = await admin.analytics(large, {});
  if (check.totals.conversations !== LARGE) throw new Error(`expected ${LARGE} conversations, read ${check.totals.conversations}`);
  for (let i = 0; i < 20; i++) await Promise.all([admin.analytics(small, {}), admin.analytics(large, {})]);

  const measure = async (accountId: string, count: number): Promise<number[]> => {
    const latencies: number[] = [];
    for (let i = 0; i < count; i++) {
      const t0 = performance.now();
      await admin.analytics(accountId, {});
      latencies.push(performance.now() - t0);
    }
    return latencies;
  };
  const smallTimes: number[] = [];
  const largeTimes: number[] = [];
  for (let round = 0; round < ROUNDS; round++) {
    smallTimes.push(...(await measure(small, Math.ceil(REQUESTS / ROUNDS))));
    largeTimes.push(...(await measure(large, Math.ceil(REQUESTS / ROUNDS))));
  }
  return { name, fillS, small: summarise(smallTimes, 1), large: summarise(largeTimes, 1) };
}

const results: Figures[] = [];
const pglite = await createPgliteStore();
try {
  results.push(await benchStore('PGlite', pglite));
} finally {
  await pglite.close();
}
if (POSTGRES_URL) {
  const schema = `bench_${randomBase62(8).toLowerCase()}`;
  const store = await createPostgresStore({ connectionString: POSTGRES_URL, schema, max: 4 });
  try {
    results.push(await benchStore('PostgreSQL', store));
  } finally {
    await store.close();
    const client = new pg.Client({ connectionString: POSTGRES_URL });
    await client.connect();
    await client.query(`drop schema if exists "${schema}" cascade`);
    await client.end();
  }
}

const p95 = (r: LoadResult): number => r.latencies[Math.min(r.latencies.length - 1, Math.floor(0.95 * r.latencies.length))]!;
const line = (label: string, r: LoadResult, base: LoadResult): string =>
  `${label.padEnd(50)} ${r.p50Ms.toFixed(2).padStart(9)} ${p95(r).toFixed(2).padStart(9)} ${(r.p50Ms / base.p50Ms).toFixed(2).padStart(12)}`;

console.log(`\nAnalytics of the last 30 days, ${SMALL} vs ${LARGE.toLocaleString('en')} conversations (6 messages each), ${REQUESTS} requests each, interleaved in ${ROUNDS} rounds, Node ${process.version}\n`);
console.log(`${'measurement'.padEnd(50)} ${'p50 ms'.padStart(9)} ${'p95 ms'.padStart(9)} ${'p50 vs 10'.padStart(12)}`);
for (const r of results) {
  console.log(line(`${r.name}: ${SMALL} conversations`, r.small, r.small));
  console.log(line(`${r.name}: ${LARGE.toLocaleString('en')} conversations`, r.large, r.small));
}
console.log('');
for (const r of results) {
  const ratio = r.large.p50Ms / r.small.p50Ms;
  console.log(`${r.name}: response time ratio ${ratio.toFixed(2)}× (aim ≤ 2×) ${ratio <= 2 ? 'ok' : 'ABOVE THE AIM'}; data written in ${r.fillS.toFixed(1)} s`);
}
if (!POSTGRES_URL) console.log('\nPostgreSQL: not measured; set SVC_BENCH_DATABASE_URL (or SVC_TEST_DATABASE_URL) to include it.');
