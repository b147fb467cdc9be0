import { afterAll, describe, expect, it } from 'vitest';
import pg from 'pg';
import { createScriptedAgent } from '@svc/agents';
import { randomBase62 } from '@svc/core';
import { makeTurnJob } from '@svc/core/testing';
import { createPostgresStore } from '@svc/store-postgres';
import { operatorAdmin } from '../cli/operator-admin.js';
import { createLogger } from '../logger.js';
import { listen } from '../node-server.js';
import { createRuntime } from '../runtime.js';
import { kill, startServiceProcess } from '../testing/processes.js';

const DATABASE_URL = process.env.SVC_TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
const cleanups: (() => Promise<void>)[] = [];
afterAll(async () => {
  for (const cleanup of cleanups.reverse()) await cleanup().catch(() => undefined);
});

interface StreamEvent {
  event: string;
  data: { text?: string; data?: { content: string } };
}

function parseEvents(body: string): StreamEvent[] {
  return body
    .split('\n\n')
    .filter((block) => block.startsWith('event: '))
    .map((block) => {
      const [eventLine, dataLine] = block.split('\n');
      return { event: eventLine!.slice('event: '.length), data: JSON.parse(dataLine!.slice('data: '.length)) as StreamEvent['data'] };
    });
}

describe('a streamed turn run by another process (PostgreSQL)', () => {
  it('reaches its caller piece by piece, the pieces adding up to the reply', async () => {
    const schema = `t_xstream_${randomBase62(8).toLowerCase()}`;
    const store = await createPostgresStore({ connectionString: DATABASE_URL, schema, max: 4 });
    cleanups.push(async () => {
      await store.close();
      const client = new pg.Client({ connectionString: DATABASE_URL });
      await client.connect();
      await client.query(`drop schema if exists "${schema}" cascade`);
      await client.end();
    });
    const account = await operatorAdmin(store).createAccount({ name: 'Streams', credits: 1e6 });
    const widget = await operatorAdmin(store).createWidget({ accountId: account.id, name: 'Streams' });
    const { key } = await operatorAdmin(store).createApiKey({ accountId: account.id, scopes: ['conversations:chat'] });

    // The process the visitor talks to: it accepts, but leaves queued turns to the workers (no fallback poll here).
    const runtime = await createRuntime({
      config: { cursorSecret: 'xstream-test-cursor-secret-01234', syncTimeoutMs: 25_000, agentTimeoutMs: 30_000 },
      store,
      logger: createLogger('silent'),
      turnPollMs: 600_000,
      agent: createScriptedAgent(async () => ({ content: 'answered by the accepting process' })),
    });
    const server = await listen(runtime, { port: 0, host: '127.0.0.1' });
    cleanups.push(async () => {
      await server.close();
      await runtime.core.work.close();
    });
    // The other process: a worker whose agent writes its answer in five pieces.
    const worker = await startServiceProcess({
      DATABASE_URL,
      SVC_TEST_SCHEMA: schema,
      ROLE: 'worker',
      AGENT_PIECES: '5',
      AGENT_PIECE_MS: '40',
    });
    cleanups.push(() => kill(worker.child));

    const base = `${server.url}/widgets/${widget.id}/conversations`;
    const headers = { 'content-type': 'application/json', 'x-api-key': key };
    const created = await fetch(base, { method: 'POST', headers, body: JSON.stringify({ visitorId: 'v-x' }) });
    const sessionId = ((await created.json()) as { data: { sessionId: string } }).data.sessionId;
    // An earlier turn of the session still running somewhere: the visitor's turn is queued behind it.
    const earlier = makeTurnJob({
      accountId: account.id,
      widgetId: widget.id,
      sessionId,
      status: 'running',
      attempts: 1,
      leaseOwner: 'wrk_elsewhere',
      leaseExpiresAt: new Date(Date.now() + 600_000),
      createdAt: new Date(),
    });
    await store.insertTurnJob(earlier);

    const res = await fetch(`${base}/${sessionId}/messages`, { method: 'POST', headers, body: JSON.stringify({ content: 'Hello', response_type: 'stream' }) });
    expect(res.status).toBe(200);
    const reader = res.body!.getReader();
    const decoder = new TextDecoder();
    let body = '';
    while (!body.includes('event: message.start\n')) body += decoder.decode((await reader.read()).value, { stream: true });
    // The earlier turn ends without telling anyone; the worker's poll finds the visitor's turn and runs it.
    await store.finishTurnJob(earlier.id, { status: 'done', error: null, at: new Date() });
    for (let chunk = await reader.read(); !chunk.done; chunk = await reader.read()) body += decoder.decode(chunk.value, { stream: true });

    const events = parseEvents(body);
    expect(events[0]!.event).toBe('message.start');
    expect(events.at(-1)!.event).toBe('message.completed');
    const content = events.at(-1)!.data.data!.content;
    expect(content).toBe('answer to Hello (part 2) (part 3) (part 4) (part 5)');
    const deltas = events.filter((e) => e.event === 'message.delta').map((e) => e.data.text!);
    expect(deltas.length).toBeGreaterThan(1);
    expect(deltas.join('')).toBe(content);
  }, 60_000);
});
